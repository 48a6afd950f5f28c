import type { AppContext } from '../../app.js';
import { nameWords } from '../../domain/matcher.js';
import { derive } from '../../snapshot/snapshot.js';
import { SECTOR_SLUGS } from '../../schemas/enums.js';
import type { ToolInvoker } from '../invoke.js';

/**
 * Where MCP completions (completion/complete) come from: sector slugs (fixed), the tracked startups' names and the
 * stored periods' slugs. Read from the published period in this process, or from a remote deployment's tools.
 */
export interface CompletionSource {
  /** Display names of the tracked startups, best ranked first. */
  startupNames(): Promise<readonly string[]>;
  /** Stored period slugs, newest first. */
  periodSlugs(): Promise<readonly string[]>;
}

export type CompletionKind = 'sector' | 'startup' | 'period';

/** MCP caps a completion at 100 values. */
export const MAX_COMPLETIONS = 100;

export interface Completion {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** Folded for comparison: lower case, accents removed, words joined by one space. */
function fold(text: string): string {
  return nameWords(text).join(' ');
}

/**
 * The values that complete `typed`: those that start with it first (in the source's order), then those with a word
 * that starts with it ("lab" completes "Acme Labs"), case- and accent-insensitive.
 */
export function completeFrom(values: readonly string[], typed: string): Completion {
  const want = fold(typed);
  const starts: string[] = [];
  const inside: string[] = [];
  for (const value of values) {
    const folded = fold(value);
    if (want === '' || folded.startsWith(want) || value.toLowerCase().startsWith(typed.toLowerCase())) {
      starts.push(value);
    } else if (folded.includes(` ${want}`)) inside.push(value);
  }
  const all = [...starts, ...inside];
  return { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS };
}

export async function complete(source: CompletionSource, kind: CompletionKind, typed: string): Promise<Completion> {
  const values =
    kind === 'sector' ? SECTOR_SLUGS : kind === 'period' ? await source.periodSlugs() : await source.startupNames();
  return completeFrom(values, typed);
}

/** The tracked startups' names, ranked ones first in rank order, then the rest by name; once per period. */
const rankedNames = derive((snapshot) =>
  [...snapshot.startups]
    .sort(
      (a, b) =>
        (a.rankOverall ?? Number.MAX_SAFE_INTEGER) - (b.rankOverall ?? Number.MAX_SAFE_INTEGER) ||
        a.startup.name.localeCompare(b.startup.name),
    )
    .map((s) => s.startup.name),
);

/** Completions from the period published in this process. */
export function localCompletions(ctx: Pick<AppContext, 'holder'>): CompletionSource {
  return {
    startupNames: async () => rankedNames(ctx.holder.published()),
    periodSlugs: async () => [...ctx.holder.published().periods].reverse().map((p) => p.slug),
  };
}

/**
 * Completions from a deployment's tools (signal-mcp with SIGNAL_BASE_URL): the startups of the trending list and of
 * every sector ranking, and the stored periods, read once a minute at most.
 */
export function remoteCompletions(invoke: ToolInvoker, ttlMs = 60_000): CompletionSource {
  let cached: { at: number; value: Promise<{ names: string[]; periods: string[] }> } | undefined;
  const load = async () => {
    const periods = (await invoke('list_periods', {})) as { periods: { slug: string }[] };
    const sectors = await Promise.all(SECTOR_SLUGS.map((sector) => invoke('search_startups_by_sector', { sector })));
    const ranked = sectors
      .flatMap((s) => ((s as { startups: { name: string }[] }).startups ?? []).map((x) => x.name))
      .filter((n, i, all) => all.indexOf(n) === i);
    return { names: ranked, periods: periods.periods.map((p) => p.slug) };
  };
  const read = () => {
    if (!cached || Date.now() - cached.at > ttlMs) {
      const value = load();
      const entry = { at: Date.now(), value };
      cached = entry;
      value.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    return cached.value;
  };
  return {
    startupNames: async () => (await read()).names,
    periodSlugs: async () => (await read()).periods,
  };
}
