import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { bestAnswer } from '../../src/core/answers/answer.js';
import { answerCorpus } from '../../src/core/answers/corpus.js';
import { repoPath } from '../../src/core/answers/content-files.js';
import { nlwebAsk } from '../../src/core/answers/nlweb-ask.js';
import {
  BLIND_STRANGER_QUESTIONS_FILE,
  evaluateQuestions,
  FRESH_STRANGER_QUESTIONS_FILE,
  GROWING_STRANGER_QUESTIONS_FILE,
  loadQuestionCases,
  MORE_STRANGER_QUESTIONS_FILE,
  SECOND_BLIND_STRANGER_QUESTIONS_FILE,
  STRANGER_QUESTIONS_FILE,
  THIRD_BLIND_STRANGER_QUESTIONS_FILE,
} from '../../evaluation/questions.js';
import { EVALUATION_BASE, evaluationSnapshot } from '../../evaluation/universe.js';

const snapshot = evaluationSnapshot(2);
const cases = loadQuestionCases();
const score = evaluateQuestions(snapshot, EVALUATION_BASE, cases);
/**
 * Whether a labelled answer exists: an entry of the corpus, or a comparison of two tracked startups (any such pair is
 * answered, not only the pairs the corpus lists).
 */
function answerable(ids: ReadonlySet<string>, id: string): boolean {
  const pair = /^compare-(.+)-vs-(.+)$/.exec(id);
  return ids.has(id) || (pair !== null && ids.has(`signal-${pair[1]}`) && ids.has(`signal-${pair[2]}`));
}
const misses = () =>
  JSON.stringify(
    score.outcomes.filter((o) => !o.correct).map((o) => [o.q, o.expect, o.got, o.confidence]),
    null,
    1,
  );

describe('labelled question set (data/eval/questions.yaml)', () => {
  test('holds at least 100 labelled questions, each expecting an answer that exists (or a comparison of two tracked startups) or a stated outcome', () => {
    assert.ok(cases.length >= 100, String(cases.length));
    const ids = new Set(answerCorpus(snapshot, EVALUATION_BASE).entries.map((e) => e.id));
    for (const c of cases) {
      assert.ok(answerable(ids, c.expect) || ['not-tracked', 'no-sector', 'none'].includes(c.expect), c.expect);
    }
  });

  test('top-1 accuracy is at least 90%', () => {
    assert.ok(score.top1 >= 0.9, `${score.top1}: ${misses()}`);
  });

  test('no wrong answer at confidence 0.7 or more (and more than 50 answers that confident)', () => {
    assert.ok(score.confidentHits > 50, String(score.confidentHits));
    assert.equal(score.confidentPrecision, 1, `${score.confidentPrecision}: ${misses()}`);
  });

  test('off-topic questions get no answer', () => {
    for (const o of score.outcomes.filter((x) => x.class === 'off-topic')) assert.equal(o.got, 'none', o.q);
  });

  test('questions naming an absent company never get an answer about another', () => {
    for (const o of score.outcomes.filter((x) => x.class === 'not-tracked')) assert.equal(o.got, 'not-tracked', o.q);
  });
});

for (const file of [STRANGER_QUESTIONS_FILE, MORE_STRANGER_QUESTIONS_FILE, GROWING_STRANGER_QUESTIONS_FILE]) {
  describe(`questions a stranger asks (${file.slice(file.indexOf('data/'))})`, () => {
    const stranger = loadQuestionCases(file);
    const result = evaluateQuestions(snapshot, EVALUATION_BASE, stranger);
    const wrong = () => JSON.stringify(result.outcomes.filter((o) => !o.correct).map((o) => [o.q, o.expect, o.got]));

    test('each expects an answer that exists (or a comparison of two tracked startups) or a stated outcome', () => {
      const ids = new Set(answerCorpus(snapshot, EVALUATION_BASE).entries.map((e) => e.id));
      for (const c of stranger)
        assert.ok(
          answerable(ids, c.expect) || ['not-tracked', 'no-sector', 'out-of-scope', 'none'].includes(c.expect),
          c.expect,
        );
    });

    test('at least 90% are answered as labelled', () => {
      assert.ok(result.top1 >= 0.9, `${result.top1}: ${wrong()}`);
    });

    test('no wrong answer at confidence 0.7 or more', () => {
      const confidentWrong = result.outcomes.filter((o) => !o.correct && (o.confidence ?? 0) >= 0.7);
      assert.deepEqual(confidentWrong, []);
    });

    test('a request for a prediction or investment advice is answered out-of-scope, never with a ranking', () => {
      for (const o of result.outcomes.filter((x) => x.expect === 'out-of-scope'))
        assert.equal(o.got, 'out-of-scope', o.q);
    });
  });
}

describe('fresh stranger questions, never tuned on (data/eval/stranger-questions-fresh.yaml)', () => {
  const fresh = loadQuestionCases(FRESH_STRANGER_QUESTIONS_FILE);
  const result = evaluateQuestions(snapshot, EVALUATION_BASE, fresh);
  const named = new Set(
    answerCorpus(snapshot, EVALUATION_BASE)
      .entries.filter((e) => e.kind === 'startup' || e.kind === 'comparison' || e.kind === 'diligence')
      .map((e) => e.id),
  );

  test('at least 90% are answered as labelled', () => {
    assert.ok(result.top1 >= 0.9, String(result.top1));
  });

  test('no miss is an answer about another company than the one asked about', () => {
    const otherCompany = result.outcomes.filter((o) => !o.correct && named.has(o.got));
    assert.deepEqual(otherCompany, []);
  });

  test('no wrong answer at confidence 0.7 or more', () => {
    const confidentWrong = result.outcomes.filter((o) => !o.correct && (o.confidence ?? 0) >= 0.7);
    assert.deepEqual(confidentWrong, []);
  });
});

/**
 * A blind set of stranger questions: labelled by someone who had not read the rules, before its questions were run.
 * `floor` is the share the rules must keep; `why` says where it comes from. `confidentlyWrong` lists the questions
 * answered wrongly at confidence 0.7 or more when the set was first run (a set the rules were never tuned on keeps
 * its measurement honest; no other question may join them). Those known ones are excused from the other-company
 * test too: they are recorded as measured, not hidden.
 */
function blindSet(file: string, floor: number, why: string, confidentlyWrong: string[] = []): void {
  describe(`blind stranger questions (${path.relative(process.cwd(), file)})`, () => {
    const blind = loadQuestionCases(file);
    const result = evaluateQuestions(snapshot, EVALUATION_BASE, blind);
    const wrong = () => JSON.stringify(result.outcomes.filter((o) => !o.correct).map((o) => [o.q, o.expect, o.got]));
    const named = new Set(
      answerCorpus(snapshot, EVALUATION_BASE)
        .entries.filter((e) => e.kind === 'startup' || e.kind === 'comparison' || e.kind === 'diligence')
        .map((e) => e.id),
    );

    test(`at least ${Math.round(floor * 100)}% are answered as labelled or as the label accepts (${why})`, () => {
      assert.ok(result.top1 >= floor, `${result.top1}: ${wrong()}`);
    });

    test(`${confidentlyWrong.length ? `no wrong answer but the ${confidentlyWrong.length} known` : 'no wrong answer'} at confidence 0.7 or more`, () => {
      assert.deepEqual(
        result.outcomes
          .filter((o) => !o.correct && !sameComparison(o.expect, o.got) && (o.confidence ?? 0) >= 0.7)
          .map((o) => o.q),
        confidentlyWrong,
      );
    });

    test(`no miss is an answer about another company than the one asked about${confidentlyWrong.length ? ' (but the known)' : ''}`, () => {
      assert.deepEqual(
        result.outcomes.filter(
          (o) =>
            !o.correct &&
            (named.has(o.got) || o.got.startsWith('compare-')) &&
            !sameComparison(o.expect, o.got) &&
            !confidentlyWrong.includes(o.q),
        ),
        [],
      );
    });

    test('NLWeb /ask declines every question the answer service declines, with no result on top', () => {
      for (const c of blind) {
        const best = bestAnswer(snapshot, EVALUATION_BASE, c.q);
        if (best.found || best.reason === 'no-match') continue;
        const messages = nlwebAsk(snapshot, EVALUATION_BASE, { query: c.q, mode: 'list', limit: 10 });
        assert.ok(!messages.some((m) => m.message_type === 'result_batch'), c.q);
        assert.ok(
          messages.some((m) => m.message_type === 'no_results' && m['message'] === best.detail),
          c.q,
        );
      }
    });

    test('each expects, and accepts, only answers that exist, comparisons of two tracked startups or stated outcomes', () => {
      const ids = new Set(answerCorpus(snapshot, EVALUATION_BASE).entries.map((e) => e.id));
      for (const c of blind)
        for (const id of [c.expect, ...(c.acceptable ?? [])])
          assert.ok(answerable(ids, id) || ['not-tracked', 'no-sector', 'out-of-scope', 'none'].includes(id), id);
    });
  });
}

/** Two comparison ids of the same pair of startups, in either order. */
function sameComparison(a: string, b: string): boolean {
  const pair = (id: string) => /^compare-(.+)-vs-(.+)$/.exec(id)?.slice(1).sort().join(' ');
  return pair(a) !== undefined && pair(a) === pair(b);
}

blindSet(
  BLIND_STRANGER_QUESTIONS_FILE,
  0.9,
  '71 of 80 with the rules of its session, 74 since; docs/api.md lists the misses',
);
blindSet(
  SECOND_BLIND_STRANGER_QUESTIONS_FILE,
  0.9,
  '48 of 70 when committed; the rules were then improved on it, so this floor guards, not measures',
);
blindSet(
  THIRD_BLIND_STRANGER_QUESTIONS_FILE,
  0.93,
  '48 of 60 when first run; the rules were then improved on its misses (56 of 60), so this floor guards, not measures',
);
blindSet(
  repoPath('data', 'eval', 'stranger-questions-blind-4.yaml'),
  0.93,
  '46 of 60 when first run; the rules were then improved on its misses (56 of 60), so this floor guards, not measures',
);
blindSet(
  repoPath('data', 'eval', 'stranger-questions-blind-5.yaml'),
  0.93,
  '56 of 60 on its first run, before any rule changed on it; the rules were then improved on its misses (60 of 60), so this floor guards, not measures',
);
blindSet(
  repoPath('data', 'eval', 'stranger-questions-blind-6.yaml'),
  0.9,
  '44 of 60 on its first run, before any rule changed on it, alike on every question surface; the rules were then improved on its misses by class (54 of 60), so this floor guards, not measures',
);
blindSet(
  repoPath('data', 'eval', 'stranger-questions-blind-7.yaml'),
  0.8,
  '40 of 60 on its first run, before any rule changed on it (its writer had read set 6 in full: blind to the rules, not to set 6); the rules were then improved on its misses by class (48 of 60), so this floor guards, not measures',
);
