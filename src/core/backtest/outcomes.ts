import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { GITHUB_USERNAME_PATTERN, type Stage } from '../../schemas/enums.js';
import { ContentError, repoPath } from '../answers/content-files.js';

/**
 * The funding rounds and acquisitions of the watchlist's startups (data/outcomes.yaml): what the backtest measures
 * the signal against, and the sourced stage of a startup. Its inclusion rule and search method are at its top.
 */
export const OUTCOMES_FILE = repoPath('data', 'outcomes.yaml');

/** The kind an acquisition is entered under; every other kind is a round's name as announced. */
export const ACQUISITION = 'acquisition';

export const SEARCH_RESULTS = ['found', 'none-found', 'ambiguous'] as const;
export type SearchResult = (typeof SEARCH_RESULTS)[number];

export const SOURCE_KINDS = ['company', 'lead-investor', 'acquirer', 'filing'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A calendar day written YYYY-MM-DD that exists (2025-02-30 does not). */
const Day = z.iso.date();

const OutcomeEvent = z
  .object({
    announced: Day,
    kind: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .refine((kind) => kind === ACQUISITION || !/acqui/i.test(kind), {
        message: `an acquisition is entered with the kind "${ACQUISITION}", exactly`,
      }),
    amount: z
      .object({
        value: z.number().positive(),
        currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 currency code such as USD'),
      })
      .strict()
      .nullable(),
    source: z.url({ protocol: /^https$/, error: 'an https URL of the primary source' }),
    publisher: z.string().trim().min(1).max(120),
    sourceKind: z.enum(SOURCE_KINDS),
  })
  .strict();
export type OutcomeEvent = z.infer<typeof OutcomeEvent>;

const OutcomeStartup = z
  .object({
    login: z.string().regex(GITHUB_USERNAME_PATTERN, 'a GitHub organisation login'),
    searchedOn: Day,
    searched: z.array(z.string().trim().min(1).max(300)).min(1, 'the queries and places searched'),
    result: z.enum(SEARCH_RESULTS),
    events: z.array(OutcomeEvent).default([]),
  })
  .strict();
export type OutcomeStartup = z.infer<typeof OutcomeStartup>;

const OutcomesDocument = z.object({ startups: z.array(OutcomeStartup) }).strict();

export interface Outcomes {
  startups: OutcomeStartup[];
  /** Lower-case login → its entry. */
  byLogin: Map<string, OutcomeStartup>;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The checks a schema cannot state: dates against today and the search, and one entry per startup and event. */
function entryProblem(entry: OutcomeStartup, today: string): string | undefined {
  if (entry.searchedOn > today) return `searchedOn: ${entry.searchedOn} is in the future`;
  if ((entry.result === 'found') !== entry.events.length > 0)
    return entry.result === 'found'
      ? 'result is found but no event is entered'
      : `result is ${entry.result} but events are entered (only a found search has events)`;
  const seen = new Set<string>();
  for (const [i, event] of entry.events.entries()) {
    if (event.announced > entry.searchedOn)
      return `events.${i}.announced: ${event.announced} is after the search (${entry.searchedOn})`;
    const kind = event.kind.toLowerCase();
    // A round's name is announced once; an acquisition is told apart by its day.
    const key = kind === ACQUISITION ? `${kind} ${event.announced}` : kind;
    if (seen.has(key)) return `events.${i}: ${event.kind} ${event.announced} is entered twice`;
    seen.add(key);
  }
  return undefined;
}

/** The outcomes of a parsed YAML document, checked; a problem throws a ContentError naming the entry. */
export function parseOutcomes(document: unknown, file: string, today = new Date()): Outcomes {
  const parsed = OutcomesDocument.safeParse(document ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(file, `${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  const byLogin = new Map<string, OutcomeStartup>();
  const day = dayOf(today);
  for (const [i, entry] of parsed.data.startups.entries()) {
    const key = entry.login.toLowerCase();
    if (byLogin.has(key)) throw new ContentError(file, `startups.${i}.login: ${entry.login} is listed twice`);
    const problem = entryProblem(entry, day);
    if (problem) throw new ContentError(file, `startups.${i} (${entry.login}).${problem}`);
    byLogin.set(key, entry);
  }
  return { startups: parsed.data.startups, byLogin };
}

/** Reads and checks an outcomes file (by default the shipped one). */
export async function readOutcomes(file = OUTCOMES_FILE, today = new Date()): Promise<Outcomes> {
  let document: unknown;
  try {
    document = parseYaml(await readFile(file, 'utf8'));
  } catch (err) {
    throw new ContentError(file, `not readable YAML (${(err as Error).message})`);
  }
  return parseOutcomes(document, file, today);
}

/**
 * The interface's stage a round's announced name gives (docs/backtest.md, "The stage an announced round gives"), or
 * undefined for a kind that names no stage (a grant, debt, a strategic investment, an acquisition).
 */
export function stageOfRound(kind: string): Stage | undefined {
  const name = kind
    .toLowerCase()
    .replace(/[^a-z0-9+]+/g, ' ')
    .replace(/\b(round|extension|funding)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (/^(pre ?seed|angel|friends (and|&) family)$/.test(name)) return 'Pre-seed';
  if (/^seed ?\+?$/.test(name)) return 'Seed';
  if (/^series [ab] ?\+?$/.test(name)) return 'Series A/B';
  if (/^(series [c-z] ?\+?|growth|late stage|private equity)$/.test(name)) return 'Growth';
  return undefined;
}

/** A startup's stage as its latest announced round gives it, with that round as the source. */
