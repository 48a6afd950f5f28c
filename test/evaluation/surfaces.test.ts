import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerCorpus } from '../../src/core/answers/corpus.js';
import { repoPath } from '../../src/core/answers/content-files.js';
import { evaluateQuestions, loadQuestionCases } from '../../evaluation/questions.js';
import { evaluationSnapshot } from '../../evaluation/universe.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The blind sets put to every HTTP question surface over the evaluation period: each answers as the answer service
 * does (the same answer, or no answer), so a set's score holds on each, and NLWeb /ask scores no site-search hit as a
 * confident answer.
 */
const FILES = [
  repoPath('data', 'eval', 'stranger-questions-blind-4.yaml'),
  repoPath('data', 'eval', 'stranger-questions-blind-5.yaml'),
  repoPath('data', 'eval', 'stranger-questions-blind-6.yaml'),
];
const sets = FILES.map((file) => ({ name: file.slice(file.indexOf('data/')), cases: loadQuestionCases(file) }));
const snapshot = evaluationSnapshot(2);

/** What a surface answered: the answer's URL, or none. */
type Reply = { url: string | undefined; searchScores: number[] };

describe('blind stranger questions on every question surface', () => {
  let app: TestApp;
  const replies = new Map<string, Reply[]>();
  const expected = new Map<string, (string | undefined)[]>();

  before(async () => {
    app = await startTestApp({}, { snapshot: () => snapshot, forceEmbedded: true });
    const urlOf = new Map(answerCorpus(snapshot, app.url).entries.map((e) => [e.id, e.url]));
    const compareUrl = (id: string) => `${app.url}/compare/${id.slice('compare-'.length)}`;
    for (const { name, cases } of sets)
      expected.set(
        name,
        evaluateQuestions(snapshot, app.url, cases).outcomes.map((o) =>
          o.confidence === null ? undefined : (urlOf.get(o.got) ?? compareUrl(o.got)),
        ),
      );
    for (const { q } of sets.flatMap((x) => x.cases)) {
      if (replies.has(q)) continue;
      const answer = await app.get(`/api/answer?q=${encodeURIComponent(q)}`);
      const ask = (await (await app.get(`/api/ask?q=${encodeURIComponent(q)}&limit=5`)).json()) as {
        hits: { url: string }[];
      };
      const ld = (await (
        await app.get('/api/nlweb', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: q }),
        })
      ).json()) as Record<string, unknown>;
      const nlweb = (await (
        await app.get(`/api/nlweb/ask?streaming=false&generate_mode=generate&query=${encodeURIComponent(q)}`)
      ).json()) as {
        results: { ranking_type: string; score: number }[];
        nlws?: { items: { url: string }[] };
      };
      // An organisation's record lists the questions it answers; a dataset's subjectOf is one object, not a list.
      const subjectOf = ld['subjectOf'];
      const ldQuestion = Array.isArray(subjectOf)
        ? (subjectOf as { '@type': string; url: string }[]).find((x) => x['@type'] === 'Question')
        : undefined;
      replies.set(q, [
        { url: answer.status === 200 ? ((await answer.json()) as { url: string }).url : undefined, searchScores: [] },
        { url: ask.hits[0]?.url, searchScores: [] },
        {
          url:
            ld['name'] === 'No result'
              ? undefined
              : ld['@type'] === 'Organization'
                ? ldQuestion?.url
                : String(ld['url']),
          searchScores: [],
        },
        {
          url: nlweb.nlws?.items[0]?.url,
          searchScores: nlweb.results.filter((r) => r.ranking_type === 'search').map((r) => r.score),
        },
      ]);
    }
  });
  after(() => app?.close());

  for (const { name, cases } of sets)
    describe(name, () => {
      for (const [i, surface] of ['/api/answer', '/api/ask', 'POST /api/nlweb', 'NLWeb /ask'].entries()) {
        test(`${surface} gives every question the answer service's answer, or none when it has none`, () => {
          assert.deepEqual(
            cases.map((c) => replies.get(c.q)![i]!.url),
            expected.get(name),
          );
        });
      }

      test('NLWeb /ask scores every site-search hit under 70, the score of a confident answer', () => {
        for (const c of cases) for (const score of replies.get(c.q)![3]!.searchScores) assert.ok(score < 70, c.q);
      });
    });
});
