import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { repoPath } from '../src/core/answers/content-files.js';
import { understand } from '../src/core/answers/understand.js';
import { deepSignal } from '../src/core/deep-signal/index.js';
import { diligenceDossier } from '../src/core/diligence/dossier.js';
import type { Snapshot } from '../src/snapshot/snapshot.js';

/**
 * Real company names from outside the code (data/eval/outside-names.yaml) put to every surface that resolves a
 * real company's name: the diligence dossier (REST GET/POST and the get_diligence_dossier tool), a question about
 * the company ("Who acquired X?", as /api/answer, /api/ask and NLWeb read it) and Deep Signal (REST, x402 and the
 * paid tool). A surface is WRONG for a name when it answers with another entity's facts.
 */
const OutsideCase = z.object({ q: z.string().min(1), expect: z.string().min(1) }).strict();
export type OutsideCase = z.infer<typeof OutsideCase>;
const OutsideFile = z.object({ sp500: z.array(OutsideCase), reported: z.array(OutsideCase) }).strict();

export const OUTSIDE_NAMES_FILE = repoPath('data', 'eval', 'outside-names.yaml');

export function loadOutsideNames(file = OUTSIDE_NAMES_FILE): OutsideCase[] {
  const parsed = OutsideFile.parse(parseYaml(readFileSync(file, 'utf8')));
  return [...parsed.sp500, ...parsed.reported];
}

export const OUTSIDE_SURFACES = ['diligence', 'answer', 'deep-signal'] as const;
export type OutsideSurface = (typeof OUTSIDE_SURFACES)[number];

export interface SurfaceOutcome {
  surface: OutsideSurface;
  cases: number;
  /** Answered with the labelled entity (or, for "none", answered with no entity at all). */
  right: number;
  /** Answered with another entity's facts: a defect on every surface. */
  wrong: { q: string; expect: string; got: string }[];
}

/** The entity each surface answered a name with, or "none". */
async function answeredWith(snapshot: Snapshot, baseUrl: string, surface: OutsideSurface, q: string): Promise<string> {
  switch (surface) {
    case 'diligence': {
      const result = diligenceDossier(snapshot, baseUrl, q);
      return result.found ? result.body.dossier.entity : 'none';
    }
    case 'answer': {
      const understood = understand(snapshot, baseUrl, `Who acquired ${q}?`, 1);
      const top = understood.kind === 'answers' ? understood.hits[0] : undefined;
      if (!top) return 'none';
      const named = top.entry.entities?.[0] ?? (top.entry.kind === 'startup' ? top.entry.subjects[0] : undefined);
      if (!named) return 'none';
      // A tracked startup is named by its login in `subjects`: report its display name.
      return snapshot.byLogin.get(named.toLowerCase())?.startup.name ?? named;
    }
    case 'deep-signal': {
      const result = await deepSignal(snapshot, q);
      return result.found ? result.startup.startup.name : 'none';
    }
  }
}

export async function evaluateOutsideNames(
  snapshot: Snapshot,
  baseUrl: string,
  cases: readonly OutsideCase[] = loadOutsideNames(),
): Promise<SurfaceOutcome[]> {
  const outcomes: SurfaceOutcome[] = [];
  for (const surface of OUTSIDE_SURFACES) {
    const outcome: SurfaceOutcome = { surface, cases: cases.length, right: 0, wrong: [] };
    for (const c of cases) {
      const got = await answeredWith(snapshot, baseUrl, surface, c.q);
      if (got === c.expect) outcome.right++;
      else if (got !== 'none') outcome.wrong.push({ q: c.q, expect: c.expect, got });
    }
    outcomes.push(outcome);
  }
  return outcomes;
}
