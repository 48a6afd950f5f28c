import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { repoPath } from '../src/core/answers/content-files.js';
import { understand } from '../src/core/answers/understand.js';
import type { Snapshot } from '../src/snapshot/snapshot.js';

/**
 * The labelled question set (data/eval/questions.yaml) and its scoring: top-1 accuracy of /api/answer's pipeline and
 * how well its confidence is calibrated (the share of hits at or above a confidence that are right).
 */
export const QuestionCase = z
  .object({
    q: z.string().min(1),
    expect: z
      .string()
      .min(1)
      .describe('Answer id, or not-tracked, no-sector, out-of-scope, none (no answer: nothing, or an ambiguous name).'),
    class: z.string().min(1),
    /** Other answers that are acceptable (a comparison in the reversed order, the closest sector). */
    acceptable: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type QuestionCase = z.infer<typeof QuestionCase>;

export const QUESTIONS_FILE = repoPath('data', 'eval', 'questions.yaml');
/** Questions a stranger asks, labelled before the rules that answer them changed (issue 33). */
export const STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions.yaml');
/** More stranger questions, labelled before they were run, then tuned on (see the file's header). */
export const MORE_STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions-more.yaml');
/** Stranger questions written after the last rule change and never tuned on: a measurement. */
export const FRESH_STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions-fresh.yaml');
/** Stranger questions about growth and industries by everyday names, labelled before the rules for them (issue 33). */
export const GROWING_STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions-growing.yaml');
/** Stranger questions written by someone who had read only the README and the served site, before the rules changed. */
export const BLIND_STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions-blind.yaml');
/** A second blind set, written from the README and the served site before the next rule changes, to measure them. */
export const SECOND_BLIND_STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions-blind-2.yaml');
/** Written from the README and the served site only, after the rules of the second set; never tuned on. */
export const THIRD_BLIND_STRANGER_QUESTIONS_FILE = repoPath('data', 'eval', 'stranger-questions-blind-3.yaml');

export function loadQuestionCases(file = QUESTIONS_FILE): QuestionCase[] {
  return z.array(QuestionCase).parse(parseYaml(readFileSync(file, 'utf8')));
}

export interface QuestionOutcome {
  q: string;
  expect: string;
  class: string;
  /** The top answer id, or not-tracked / ambiguous / no-sector / out-of-scope / none. */
  got: string;
  confidence: number | null;
  /** The labelled answer (good) or one the label accepts. */
  correct: boolean;
  /** The labelled answer itself. */
  good: boolean;
}

export interface QuestionScore {
  questions: number;
  top1: number;
  /** Hits (an answer returned) at confidence ≥ 0.7, and the share of them that are right. */
  confidentHits: number;
  confidentPrecision: number;
  /** Per confidence band: hits and the share right. */
  calibration: { band: string; hits: number; precision: number }[];
  byClass: { class: string; questions: number; top1: number }[];
  outcomes: QuestionOutcome[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function evaluateQuestions(
  snapshot: Snapshot,
  baseUrl: string,
  cases: readonly QuestionCase[] = loadQuestionCases(),
): QuestionScore {
  const outcomes = cases.map((c): QuestionOutcome => {
    const u = understand(snapshot, baseUrl, c.q, 1);
    const hit = u.kind === 'answers' ? u.hits[0] : undefined;
    const got =
      u.kind === 'not-tracked' && u.ambiguous ? 'ambiguous' : u.kind !== 'answers' ? u.kind : (hit?.entry.id ?? 'none');
    // A name that fits several entities equally gets no answer, as "none" asks.
    const good = got === c.expect || (c.expect === 'none' && got === 'ambiguous');
    return {
      ...c,
      got,
      confidence: hit?.confidence ?? null,
      good,
      correct: good || (c.acceptable ?? []).includes(got),
    };
  });
  const hits = outcomes.filter((o) => o.confidence !== null);
  const confident = hits.filter((o) => o.confidence! >= 0.7);
  const bands = [
    [0.5, 0.7],
    [0.7, 0.85],
    [0.85, 1.01],
  ] as const;
  const classes = [...new Set(cases.map((c) => c.class))];
  return {
    questions: outcomes.length,
    top1: round(outcomes.filter((o) => o.correct).length / Math.max(1, outcomes.length)),
    confidentHits: confident.length,
    confidentPrecision: round(confident.length ? confident.filter((o) => o.correct).length / confident.length : 1),
    calibration: bands.map(([lo, hi]) => {
      const inBand = hits.filter((o) => o.confidence! >= lo && o.confidence! < hi);
      return {
        band: `${lo}–${Math.min(hi, 1)}`,
        hits: inBand.length,
        precision: round(inBand.length ? inBand.filter((o) => o.correct).length / inBand.length : 1),
      };
    }),
    byClass: classes.map((cls) => {
      const list = outcomes.filter((o) => o.class === cls);
      return { class: cls, questions: list.length, top1: round(list.filter((o) => o.correct).length / list.length) };
    }),
    outcomes,
  };
}
