import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { repoPath } from '../src/core/answers/content-files.js';
import { diligenceIndex, subjectName, type Subject } from '../src/core/diligence/dossier.js';
import type { NameMatcher } from '../src/domain/matcher.js';
import type { Snapshot } from '../src/snapshot/snapshot.js';

/**
 * The labelled name-matching set (data/eval/names.yaml) and its scoring: how often the one matching rule resolves a
 * query to the labelled entity, per class of query.
 */
export const NAME_CLASSES = ['absent', 'generic', 'exact', 'slug', 'alias', 'typo-1', 'typo-2', 'shared'] as const;
export type NameClass = (typeof NAME_CLASSES)[number];

export const NameCase = z
  .object({
    q: z.string().min(1),
    class: z.enum(NAME_CLASSES),
    expect: z.string().min(1).describe('Canonical name, or "none", or "ambiguous".'),
    among: z.array(z.string()).optional(),
  })
  .strict();
export type NameCase = z.infer<typeof NameCase>;

export const NAMES_FILE = repoPath('data', 'eval', 'names.yaml');

export function loadNameCases(file = NAMES_FILE): NameCase[] {
  return z.array(NameCase).parse(parseYaml(readFileSync(file, 'utf8')));
}

export interface ClassScore {
  class: NameClass;
  queries: number;
  /** Queries whose outcome is the labelled one. */
  correct: number;
  /** Matches to an entity other than the labelled one, or any match where none was expected. */
  substitutions: number;
  /** Of the matches returned, the share that were the labelled entity (1 when none were returned). */
  precision: number;
  /** Of the queries labelled with an entity, the share resolved to it (the correct-outcome rate for none/ambiguous). */
  recall: number;
  failures: { q: string; expect: string; got: string }[];
}

export function scoreNames(matcher: NameMatcher<Subject>, cases: readonly NameCase[]): ClassScore[] {
  return NAME_CLASSES.map((cls) => {
    const list = cases.filter((c) => c.class === cls);
    let correct = 0;
    let matches = 0;
    let rightMatches = 0;
    let substitutions = 0;
    const failures: ClassScore['failures'] = [];
    for (const c of list) {
      const r = matcher.resolve(c.q);
      const got = r.status === 'match' ? subjectName(r.item) : r.status;
      let ok: boolean;
      if (c.expect === 'ambiguous') {
        ok =
          r.status === 'ambiguous' &&
          (!c.among || c.among.every((name) => r.candidates.some((k) => subjectName(k.item) === name)));
      } else if (c.expect === 'none') ok = r.status !== 'match';
      else ok = got === c.expect;
      if (r.status === 'match') {
        matches++;
        if (ok) rightMatches++;
        else substitutions++;
      }
      if (ok) correct++;
      else failures.push({ q: c.q, expect: c.expect, got });
    }
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return {
      class: cls,
      queries: list.length,
      correct,
      substitutions,
      precision: round(matches ? rightMatches / matches : 1),
      recall: round(list.length ? correct / list.length : 1),
      failures,
    };
  });
}

/** Scores the set against the diligence universe of `snapshot` (corpus entities and tracked startups). */
export function evaluateNames(snapshot: Snapshot, baseUrl: string, cases = loadNameCases()): ClassScore[] {
  return scoreNames(diligenceIndex(snapshot, baseUrl).matcher, cases);
}
