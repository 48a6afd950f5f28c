import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AnswerHit, AnswersCorpus, AskResponse, FaqPage } from '../../../src/schemas/answers.js';
import { parsePeriodSlug, shiftPeriod } from '../../../src/domain/periods.js';
import { publishPeriod } from '../../../src/store/periods.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';
import { generatedDemo } from '../../helpers/demo.js';

const HIT_FIELDS = ['answer', 'confidence', 'facts', 'question', 'related', 'source', 'url'];
const q = (text: string) => encodeURIComponent(text);

describe('answer routes', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod, watchPeriods: true });
  });
  after(() => svc.close());

  async function problem(res: Response, status: number) {
    assert.equal(res.status, status);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    return (await res.json()) as Record<string, unknown>;
  }

  test('GET /api/answer answers one AnswerHit with exactly the spec fields', async () => {
    const res = await svc.get(`/api/answer?q=${q('Which are the fastest accelerating robotics startups?')}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const hit = AnswerHit.parse(await res.json());
    assert.deepEqual(Object.keys(hit).sort(), HIT_FIELDS);
    assert.equal(hit.source, 'agent-query');
    assert.equal(hit.confidence, 1);
    assert.equal(hit.url, `${svc.url}/answers/fastest-accelerating-robotics`);
  });

  test('answer facts link to pages and API documents on this service', async () => {
    const hit = AnswerHit.parse(await (await svc.get(`/api/answer?q=${q('trending startups this week')}`)).json());
    assert.ok(hit.facts.length > 0);
    for (const f of hit.facts) assert.ok(f.sourceUrl.startsWith(`${svc.url}/`), f.sourceUrl);
    for (const r of hit.related) assert.ok(r.url.startsWith(`${svc.url}/answers/`), r.url);
  });

  test('a FAQ question is answered from the faq source', async () => {
    const hit = AnswerHit.parse(await (await svc.get(`/api/answer?q=${q('do credits expire')}`)).json());
    assert.equal(hit.source, 'faq');
    assert.equal(hit.url, `${svc.url}/faq#do-credits-expire`);
  });

  test('GET /api/answer with no good match is 404 problem+json with found false, suggestions and a search URL', async () => {
    const body = await problem(await svc.get(`/api/answer?q=${q('banana smoothie recipe')}`), 404);
    assert.equal(body.found, false);
    assert.equal(body.query, 'banana smoothie recipe');
    assert.ok(Array.isArray(body.suggestions));
    assert.equal(body.searchUrl, `${svc.url}/api/llms-search?q=banana%20smoothie%20recipe`);
  });

  test('GET /api/answer without q is 400', async () => {
    const body = await problem(await svc.get('/api/answer'), 400);
    assert.match(String(body.detail), /q/);
  });

  test('a q of 281 characters is 400; one of 280 is accepted and, matching no question, answers the 404 miss', async () => {
    await problem(await svc.get(`/api/answer?q=${'a'.repeat(281)}`), 400);
    const miss = await problem(await svc.get(`/api/answer?q=${'a'.repeat(280)}`), 404);
    assert.equal(miss.found, false);
  });

  test('an empty or blank q is 400', async () => {
    await problem(await svc.get('/api/answer?q='), 400);
    await problem(await svc.get('/api/answer?q=%20%20%20'), 400);
  });

  test('a repeated q is 400', async () => {
    await problem(await svc.get('/api/answer?q=a&q=b'), 400);
  });

  test('hostile q values (HTML, SQL, unicode, control characters) answer the 404 miss, never a 5xx', async () => {
    for (const hostile of [
      '<script>alert(1)</script>',
      "' OR 1=1; DROP TABLE periods; --",
      '🚀 ロボット startups ﷽',
      '\u0000\u0007\u001b[31m',
      '%00%ff',
    ]) {
      const res = await svc.get(`/api/answer?q=${q(hostile)}`);
      const miss = await problem(res, 404);
      assert.equal(miss.found, false, hostile);
    }
  });

  test('GET /api/ask answers {query, hits} with 5 hits by default', async () => {
    const res = await svc.get(`/api/ask?q=${q('fastest accelerating startups')}`);
    assert.equal(res.status, 200);
    const body = AskResponse.parse(await res.json());
    assert.deepEqual(Object.keys(body), ['query', 'hits']);
    assert.equal(body.query, 'fastest accelerating startups');
    assert.equal(body.hits.length, 5);
    for (const hit of body.hits) {
      assert.deepEqual(Object.keys(hit).sort(), HIT_FIELDS);
      assert.ok(hit.confidence >= 0 && hit.confidence <= 1);
    }
  });

  test('a question naming a tracked startup is answered about that startup', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as { trending: { name: string }[] };
    const name = signals.trending[2]!.name;
    const hit = AnswerHit.parse(await (await svc.get(`/api/answer?q=${q(`How is ${name} doing?`)}`)).json());
    assert.match(hit.question, new RegExp(`signal for ${name}`));
    assert.ok(hit.confidence >= 0.7);
  });

  test('a question naming a startup with a typo in its distinctive word is 404 not-tracked, offering that startup, never answered as it', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as { trending: { name: string }[] };
    const name = signals.trending[3]!.name;
    const [first, ...rest] = name.split(' ');
    const typo = [first!.slice(0, 2) + first!.slice(3), ...rest].join(' ');
    const body = await problem(await svc.get(`/api/answer?q=${q(`Tell me about ${typo}`)}`), 404);
    assert.equal(body.reason, 'not-tracked');
    assert.ok((body.candidates as { name: string }[]).some((c) => c.name === name));
  });

  test('a question naming an absent real company is 404 not-tracked, never another company', async () => {
    for (const question of [
      'How is GitLab doing?',
      'What is the engineering signal for Stripe?',
      'Who acquired Redis?',
    ]) {
      const res = await svc.get(`/api/answer?q=${q(question)}`);
      const body = await problem(res, 404);
      assert.equal(body.reason, 'not-tracked', question);
      assert.match(String(body.detail), /is not tracked/);
    }
  });

  test('a related name is not-tracked with the documented entity as a candidate', async () => {
    const body = await problem(await svc.get(`/api/answer?q=${q('Who acquired Sequoia Capital?')}`), 404);
    assert.equal(body.reason, 'not-tracked');
    assert.equal((body.candidates as { name: string }[])[0]!.name, 'Peak XV Partners');
  });

  test('a generic word alone is not read as a company', async () => {
    const res = await svc.get(`/api/answer?q=${q('data')}`);
    if (res.status === 200) assert.doesNotMatch(AnswerHit.parse(await res.json()).question, /acquired|signal for/);
    else assert.equal((await problem(res, 404)).reason, 'no-match');
  });

  test('an ambiguous startup name is never answered with one of them', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as {
      sectors: { startups: { name: string }[] }[];
    };
    const byFirst = new Map<string, number>();
    for (const { name } of signals.sectors.flatMap((s) => s.startups)) {
      byFirst.set(name.split(' ')[0]!, (byFirst.get(name.split(' ')[0]!) ?? 0) + 1);
    }
    const first = [...byFirst].find(([, n]) => n === 2)![0];
    const res = await svc.get(`/api/answer?q=${q(`What is the engineering signal for ${first}?`)}`);
    const body = await problem(res, 404);
    assert.equal(body.reason, 'ambiguous');
    const offered = (body.candidates as { name: string }[]).map((c) => c.name.split(' ')[0]);
    assert.equal(offered.filter((word) => word === first).length, 2, 'both startups are offered');
  });

  test('a diligence fact is answerable with its press release', async () => {
    const hit = AnswerHit.parse(await (await svc.get(`/api/answer?q=${q('Who acquired GitHub?')}`)).json());
    assert.equal(hit.question, 'Who acquired GitHub?');
    assert.match(hit.answer, /Microsoft/);
    assert.ok(hit.facts.some((f) => f.sourceUrl.startsWith('https://news.microsoft.com/')));
  });

  test('a sector the service does not have is 404 no-sector with the sectors it has', async () => {
    const body = await problem(await svc.get(`/api/answer?q=${q('Which fintech startups are trending?')}`), 404);
    assert.equal(body.reason, 'no-sector');
    assert.match(String(body.detail), /no fintech sector/);
    assert.equal((body.sectors as string[]).length, 15);
  });

  test('/api/ask says why hits are empty for an untracked company', async () => {
    const body = AskResponse.parse(await (await svc.get(`/api/ask?q=${q('How is GitLab doing?')}`)).json());
    assert.deepEqual(body.hits, []);
    assert.match(body.notice ?? '', /GitLab is not tracked/);
  });

  test('"what is X" answers the definition, not a statistic', async () => {
    const hit = AnswerHit.parse(await (await svc.get(`/api/answer?q=${q('What is commit velocity?')}`)).json());
    assert.equal(hit.source, 'faq');
  });

  test('GET /api/ask honours limit 1 to 20 and rejects 0, 21, decimals and text', async () => {
    const twenty = AskResponse.parse(await (await svc.get(`/api/ask?q=${q('startups')}&limit=20`)).json());
    assert.ok(twenty.hits.length <= 20 && twenty.hits.length > 5);
    const one = AskResponse.parse(await (await svc.get(`/api/ask?q=${q('startups')}&limit=1`)).json());
    assert.equal(one.hits.length, 1);
    for (const bad of ['0', '21', '1.5', 'ten', '']) {
      await problem(await svc.get(`/api/ask?q=startups&limit=${bad}`), 400);
    }
  });

  test('GET /api/ask with no good match answers an empty hits list', async () => {
    const res = await svc.get(`/api/ask?q=${q('banana smoothie recipe')}`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { query: 'banana smoothie recipe', hits: [] });
  });

  test('GET /api/ask without q is 400', async () => {
    await problem(await svc.get('/api/ask?limit=3'), 400);
  });

  test('/api/answers.json and /api/v1/answers.json serve the same corpus with an ETag', async () => {
    const a = await svc.get('/api/answers.json');
    const b = await svc.get('/api/v1/answers.json');
    assert.equal(a.status, 200);
    const [textA, textB] = [await a.text(), await b.text()];
    assert.equal(textA, textB);
    const corpus = AnswersCorpus.parse(JSON.parse(textA));
    assert.ok(corpus.meta.counts['agent-query'] > 300);
    assert.ok(corpus.meta.counts.faq >= 60);
    assert.match(b.headers.get('link') ?? '', /\/api\/answers\.json>; rel="canonical"/);
    const etag = a.headers.get('etag')!;
    const again = await svc.get('/api/answers.json', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('GET /api/v1/faq.json is a schema.org FAQPage of at least 60 questions', async () => {
    const res = await svc.get('/api/v1/faq.json');
    assert.equal(res.status, 200);
    const page = FaqPage.parse(await res.json());
    assert.equal(page['@type'], 'FAQPage');
    assert.ok(page.mainEntity.length >= 60);
    assert.ok(page.mainEntity.every((m) => m.acceptedAnswer.url.startsWith(`${svc.url}/faq#`)));
  });

  // Last: it publishes a new period into this service's store.
  test('the corpus is rebuilt for a newly published period', async () => {
    const before = AnswersCorpus.parse(await (await svc.get('/api/answers.json')).json());
    const next = shiftPeriod(parsePeriodSlug(before.meta.period.slug), 1);
    const dataset = generatedDemo({ seed: 'next-period', startups: 30, periods: 1, endPeriod: next });
    await publishPeriod(svc.service.store.db, {
      period: next,
      ranked: dataset.periods[0]!.ranked,
      dataset: 'synthetic-demo',
      datasetName: 'next period',
      publishedAt: new Date(),
    });
    let after = before;
    for (let i = 0; i < 100 && after.meta.period.slug === before.meta.period.slug; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = AnswersCorpus.parse(await (await svc.get('/api/answers.json')).json());
    }
    assert.equal(after.meta.period.slug, next.slug);
    assert.ok(after.meta.counts['agent-query'] < before.meta.counts['agent-query']);
    const name = dataset.periods[0]!.ranked.startups[0]!.startup.name;
    const hit = AnswerHit.parse(
      await (await svc.get(`/api/answer?q=${q(`What is the engineering signal for ${name}?`)}`)).json(),
    );
    assert.equal(hit.question, `What is the engineering signal for ${name}?`);
  });
});
