import { rendered, startupJson, type Rendered, type Snapshot, type SnapshotStartup } from '../../snapshot/snapshot.js';
import type { SignalCandidate } from '../../schemas/signals.js';
import type { Resolution } from '../../domain/matcher.js';

/** Response header that says how a company name was resolved (docs/api.md, "Name matching"). */
export const NAME_MATCH_HEADER = 'X-Name-Match';
export const NAME_MATCH_VALUES = ['exact', 'slug', 'alias', 'typo', 'ambiguous', 'none'] as const;
export type NameMatchValue = (typeof NAME_MATCH_VALUES)[number];

export interface StartupLookup {
  resolution: Resolution<SnapshotStartup>;
  /** The value of the X-Name-Match header. */
  header: NameMatchValue;
  /** The body to answer: the startup's pre-rendered record, a miss with candidates, or undefined for a bare miss. */
  rendered: Rendered | undefined;
}

export function startupCandidates(resolution: Resolution<SnapshotStartup>): SignalCandidate[] {
  if (resolution.status === 'match') return [];
  return resolution.candidates.map((c) => ({ name: c.item.startup.name, org: c.item.login, why: c.why }));
}

/** /api/signal: the startup a name resolves to by the one matching rule, never a substitute. */
export function resolveStartup(snapshot: Snapshot, query: string): StartupLookup {
  const resolution = snapshot.matcher.resolve(query);
  if (resolution.status === 'match') {
    return { resolution, header: resolution.how, rendered: startupJson(resolution.item) };
  }
  const candidates = startupCandidates(resolution);
  return {
    resolution,
    header: resolution.status,
    rendered: candidates.length
      ? rendered(JSON.stringify({ found: false, candidates }), 'application/json; charset=utf-8')
      : undefined,
  };
}

/** A startup resolved by the strict rule: how its name matched, and the startup or the "did you mean" candidates. */
export interface StrictLookup {
  how: NameMatchValue;
  item: SnapshotStartup | undefined;
  candidates: SignalCandidate[];
}

/**
 * The strict rule for a tracked startup (exact name, slug or alias, or a misspelt generic word beside the exact
 * distinctive ones; never a misspelt distinctive word): what the surfaces use wherever a
 * near name may be another company (history, comparisons, a past week, the site's compare picker).
 */
export function resolveStrict(snapshot: Snapshot, query: string): StrictLookup {
  const resolution = snapshot.matcher.resolve(query, { typos: false });
  if (resolution.status === 'match') return { how: resolution.how, item: resolution.item, candidates: [] };
  return { how: resolution.status, item: undefined, candidates: startupCandidates(resolution) };
}
