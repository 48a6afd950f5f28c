import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerCorpus, faqPage } from '../../../src/core/answers/corpus.js';
import { toHit } from '../../../src/core/answers/answer-index.js';
import { slugify } from '../../../src/core/answers/entry.js';
import { MIN_CONFIDENCE } from '../../../src/core/answers/confidence.js';
import { readFaq } from '../../../src/core/answers/faq.js';
import { AnswerHit, AnswersCorpus, FaqPage } from '../../../src/schemas/answers.js';
import { MIN_COMMITS_FOR_RANKING, MIN_CONTRIBUTORS_FOR_RANKING } from '../../../src/domain/rules.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();
const corpus = answerCorpus(snapshot, BASE);
const agent = corpus.entries.filter((e) => e.source === 'agent-query');

describe('answer corpus', () => {
  test("a startup's signal counts one commit, contributor or repository in the singular and never states an unknown place as a location", () => {
    const signals = corpus.entries.filter((e) => e.kind === 'startup');
    const ones = snapshot.startups.filter((s) => s.startup.newRepos === 1);
    assert.ok(ones.length > 0);
    for (const s of ones) {
      const entry = signals.find((e) => e.subjects[0] === s.login)!;
      assert.match(entry.answer, /created 1 repository in/, s.login);
    }
    for (const e of signals) {
      assert.doesNotMatch(e.answer, /\b1 (?:commits|contributors|repositories)\b/, e.id);
      assert.doesNotMatch(e.answer, /\(Unknown\)/, e.id);
    }
  });

  test('has one agent query per tracked startup', () => {
    for (const s of snapshot.startups) {
      const entry = agent.find((e) => e.kind === 'startup' && e.subjects[0] === s.login);
      assert.ok(entry, s.login);
      assert.equal(entry.question, `What is the engineering signal for ${s.startup.name}?`);
      assert.match(entry.answer, new RegExp(`\\b${s.startup.commitVelocity14d} commits? \\(`));
      assert.ok(entry.answer.includes(s.startup.signalType));
    }
  });

  test("a startup's answer, written when read, is the same on every read and relates its sector's ranking", () => {
    const s = snapshot.startups[0]!;
    const entry = corpus.byId.get(`signal-${slugify(s.login)}`)!;
    assert.equal(entry.answer, entry.answer);
    assert.deepEqual(entry.facts, entry.facts);
    assert.deepEqual(entry.related, entry.related);
    const top = corpus.byId.get(`top-${s.sector}`)!;
    assert.ok(entry.related.some((r) => r.url === top.url && r.question === top.question));
    assert.ok(entry.related.length <= 4);
  });

  test('has top and fastest-accelerating questions for every sector, trending, signal types and comparisons', () => {
    const ids = new Set(agent.map((e) => e.id));
    for (const slug of snapshot.bySector.keys()) {
      assert.ok(ids.has(`top-${slug}`), slug);
      assert.ok(ids.has(`fastest-accelerating-${slug}`), slug);
    }
    for (const id of ['trending', 'fastest-accelerating', 'signal-type-engineering-hiring-burst', 'dataset-coverage']) {
      assert.ok(ids.has(id), id);
    }
    assert.ok(agent.some((e) => e.kind === 'comparison'));
    assert.ok(agent.some((e) => e.kind === 'research'));
  });

  test('the fastest-accelerating list of a sector is ordered by commit change', () => {
    const entry = agent.find((e) => e.id === 'fastest-accelerating-robotics')!;
    const changes = entry.subjects.map((l) => parseInt(snapshot.byLogin.get(l)!.startup.commitVelocityChange, 10));
    assert.deepEqual(
      changes,
      [...changes].sort((a, b) => b - a),
    );
  });

  test('each fastest-accelerating list is what a full sort of the rising startups above the activity floor puts first (ranked across sectors or not): commit change, then commits, then login', () => {
    const change = (login: string) => parseInt(snapshot.byLogin.get(login)!.startup.commitVelocityChange, 10);
    const sorted = (logins: string[]) =>
      [...logins].sort((a, b) => {
        const [x, y] = [snapshot.byLogin.get(a)!.startup, snapshot.byLogin.get(b)!.startup];
        return change(b) - change(a) || y.commitVelocity14d - x.commitVelocity14d || (a < b ? -1 : 1);
      });
    const lists = [
      ['fastest-accelerating', snapshot.startups],
      ...[...snapshot.bySector].map(([slug, list]) => [`fastest-accelerating-${slug}`, list] as const),
    ] as const;
    for (const [id, list] of lists) {
      const eligible = list.filter(
        (s) =>
          Number(s.metrics['commitsCurrent']) >= MIN_COMMITS_FOR_RANKING &&
          Number(s.metrics['contributorsCurrent']) >= MIN_CONTRIBUTORS_FOR_RANKING,
      );
      const rising = (eligible.length ? eligible : list).filter((s) => change(s.login) > 0);
      const expected = sorted(rising.map((s) => s.login)).slice(0, 5);
      assert.deepEqual(agent.find((e) => e.id === id)!.subjects, expected, id);
    }
  });

  test('a fastest-accelerating list names only startups whose commits rose, and says so when none did', () => {
    const lists = agent.filter((e) => e.kind === 'fastest' || e.kind === 'sector-fastest' || e.kind === 'stage');
    assert.ok(lists.length > 15);
    for (const e of lists) {
      for (const login of e.subjects)
        assert.ok(parseInt(snapshot.byLogin.get(login)!.startup.commitVelocityChange, 10) > 0, `${e.id}: ${login}`);
      assert.doesNotMatch(e.answer, /\(-\d+% commits|\(\+?0% commits/, e.id);
      if (e.subjects.length === 0) assert.match(e.answer, /none is listed as accelerating/, e.id);
    }
  });

  test('every answer has facts with absolute source URLs on the service and related questions', () => {
    for (const e of corpus.entries) {
      assert.ok(e.facts.length > 0, e.id);
      for (const f of e.facts) {
        // FAQ and diligence facts cite their public sources (press releases, filings); the others the service.
        assert.ok(
          e.source === 'faq' || e.kind === 'diligence'
            ? /^https:\/\//.test(f.sourceUrl)
            : f.sourceUrl.startsWith(`${BASE}/`),
          `${e.id}: ${f.sourceUrl}`,
        );
      }
      for (const r of e.related) assert.ok(r.url.startsWith(`${BASE}/`));
    }
    assert.ok(agent.every((e) => e.related.length > 0));
  });

  test('answers from the synthetic dataset say they are synthetic', () => {
    for (const e of agent.filter((x) => x.kind !== 'diligence')) assert.match(e.answer, /Synthetic demo data/, e.id);
  });

  test('diligence answers are real sourced facts and never say synthetic', () => {
    const diligence = agent.filter((x) => x.kind === 'diligence');
    assert.ok(diligence.some((e) => e.id === 'acquired-github'));
    for (const e of diligence) {
      assert.doesNotMatch(e.answer, /Synthetic demo data/, e.id);
      assert.ok(
        e.facts.some((f) => f.sourceUrl.includes('/api/diligence.json?company=')),
        e.id,
      );
    }
  });

  test("a deal's note travels into the answer text", () => {
    const loom = corpus.entries.find((e) => e.id === 'acquired-loom');
    assert.ok(loom);
    assert.match(loom.answer, /Atlassian acquired Loom/);
    assert.match(loom.answer, /The sources disagree on the price/);
    const replicate = corpus.entries.find((e) => e.id === 'acquired-replicate');
    assert.ok(replicate);
    assert.match(replicate.answer, /announced 2025-11-17, completed 2025-12-01/);
    assert.match(replicate.answer, /No price was disclosed/);
  });

  test('the FAQ entries are part of the corpus', () => {
    assert.equal(corpus.entries.filter((e) => e.source === 'faq').length, readFaq().length);
  });

  test('the rendered corpus matches its schema and counts both sources', () => {
    const body = AnswersCorpus.parse(JSON.parse(corpus.json.body.toString()));
    assert.equal(body.meta.total, corpus.entries.length);
    assert.equal(body.meta.counts['agent-query'], agent.length);
    assert.equal(body.meta.synthetic, true);
    assert.equal(body.meta.period.slug, snapshot.period.slug);
  });

  test('the corpus is built once per snapshot and rebuilt for a new one', () => {
    assert.equal(answerCorpus(snapshot, BASE), corpus);
    const next = demoSnapshot({ startups: 45, seed: 'next-period' });
    assert.notEqual(answerCorpus(next, BASE), corpus);
  });

  test('the FAQ page is a schema.org FAQPage with every question', () => {
    const page = FaqPage.parse(JSON.parse(faqPage(BASE).body.toString()));
    assert.equal(page.mainEntity.length, readFaq().length);
  });
});

describe('answer index', () => {
  const { index } = corpus;

  test('a sector question finds the sector answer with full confidence', () => {
    const best = index.best('Which are the fastest accelerating robotics startups?')!;
    assert.equal(best.entry.id, 'fastest-accelerating-robotics');
    assert.equal(best.confidence, 1);
  });

  test('a startup name finds that startup first', () => {
    const s = snapshot.startups[10]!;
    assert.equal(index.best(`${s.startup.name} signal`)!.entry.id, `signal-${s.login}`);
  });

  test('a question with a typo still finds its answer', () => {
    assert.equal(index.best('how oftn is the data refreshed')!.entry.id, 'faq-how-often-is-data-refreshed');
  });

  test('an unrelated question has no answer', () => {
    assert.equal(index.best('banana smoothie recipe'), undefined);
    assert.deepEqual(index.ask('banana smoothie recipe', 5), []);
  });

  test('ask returns at most limit hits, best confidence first, none below the floor', () => {
    const hits = index.ask('robotics startups', 7);
    assert.ok(hits.length > 0 && hits.length <= 7);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.confidence >= hits[i]!.confidence);
    assert.ok(hits.every((h) => h.confidence >= MIN_CONFIDENCE && h.confidence <= 1));
  });

  test('a hit has exactly the AnswerHit fields', () => {
    const hit = toHit(index.best('what is the data licence')!);
    assert.deepEqual(Object.keys(hit).sort(), [
      'answer',
      'confidence',
      'facts',
      'question',
      'related',
      'source',
      'url',
    ]);
    AnswerHit.parse(hit);
  });
});

describe('links of the answer corpus', () => {
  test('every answer links only pages that exist: its own, other answers and FAQ entries of the corpus', () => {
    const answerUrls = new Set(corpus.entries.map((e) => e.url));
    const faqUrls = new Set(corpus.entries.filter((e) => e.kind === 'faq').map((e) => e.url));
    const broken: string[] = [];
    for (const entry of corpus.entries) {
      for (const { url } of entry.related) {
        if (!answerUrls.has(url) && !faqUrls.has(url)) broken.push(`${entry.id} → ${url}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
