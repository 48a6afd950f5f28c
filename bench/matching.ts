/**
 * Name matching and answer quality against the labelled sets in data/eval/: precision and recall of the one matching
 * rule per class of name query (data/eval/names.yaml), and top-1 accuracy and confidence calibration of the answer
 * pipeline (data/eval/questions.yaml). Quality, not speed: the same numbers every run.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateNames, loadNameCases } from '../evaluation/names.js';
import { evaluateQuestions } from '../evaluation/questions.js';
import { EVALUATION_BASE, evaluationSnapshot } from '../evaluation/universe.js';
import { printTable, type BenchResult } from './types.js';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function run(): Promise<BenchResult[]> {
  const snapshot = evaluationSnapshot(2);
  const names = evaluateNames(snapshot, EVALUATION_BASE, loadNameCases());
  const results: BenchResult[] = names.map((s) => ({
    name: `names: ${s.class}`,
    metrics: {
      queries: s.queries,
      precision: pct(s.precision),
      recall: pct(s.recall),
      substitutions: s.substitutions,
    },
  }));
  const questions = evaluateQuestions(snapshot, EVALUATION_BASE);
  results.push({
    name: `answers: all ${questions.questions} questions`,
    metrics: {
      queries: questions.questions,
      'top-1': pct(questions.top1),
      'hits ≥ 0.7': questions.confidentHits,
      'right at ≥ 0.7': pct(questions.confidentPrecision),
    },
  });
  for (const band of questions.calibration) {
    results.push({
      name: `answers: confidence ${band.band}`,
      metrics: { queries: band.hits, precision: pct(band.precision) },
    });
  }
  for (const c of questions.byClass) {
    results.push({ name: `answers: ${c.class}`, metrics: { queries: c.questions, 'top-1': pct(c.top1) } });
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printTable('Name matching and answers against the labelled sets', await run());
}
