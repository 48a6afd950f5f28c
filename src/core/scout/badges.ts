import type { ScoutRank } from '../../schemas/scout.js';
import type { Snapshot } from '../../snapshot/snapshot.js';

/**
 * SVG badges, rendered by shields.io's own library (badge-maker, which escapes every text it is given). Texts here
 * are fixed words, validated logins and numbers; invalid input is shown as the word "invalid", never echoed.
 * badge-maker is loaded with the first badge asked for: its font-width tables are about 1 MB of code that a start
 * would otherwise compile and run.
 */
type MakeBadge = typeof import('badge-maker').makeBadge;
let loaded: MakeBadge | undefined;
let loading: Promise<MakeBadge> | undefined;

async function badge(format: Parameters<MakeBadge>[0]): Promise<string> {
  const make = loaded ?? (await (loading ??= import('badge-maker').then((m) => (loaded = m.makeBadge))));
  return make(format);
}
export const RANK_COLORS: Record<ScoutRank, string> = {
  curious: 'lightgrey',
  scout: 'blue',
  sharp: 'green',
  elite: 'orange',
  oracle: 'blueviolet',
};

export const MOMENTUM_TIERS = [
  { tier: 'surging', minComposite: 75, color: 'brightgreen' },
  { tier: 'rising', minComposite: 50, color: 'green' },
  { tier: 'steady', minComposite: 25, color: 'yellow' },
  { tier: 'quiet', minComposite: 0, color: 'lightgrey' },
] as const;
export type MomentumTier = (typeof MOMENTUM_TIERS)[number]['tier'] | 'untracked';

export function scoutBadge(score: number, rank: ScoutRank): Promise<string> {
  return badge({ label: 'scout score', message: `${score} · ${rank}`, color: RANK_COLORS[rank] });
}

export function messageBadge(label: string, message: 'invalid' | 'unknown user' | 'unavailable'): Promise<string> {
  return badge({ label, message, color: message === 'unavailable' ? 'yellow' : 'red' });
}

export function builtWithBadge(): Promise<string> {
  return badge({ label: 'built with', message: 'Signal Service', color: 'blue' });
}

/** The tier of an organisation from the current snapshot's composite score; "untracked" when it is not tracked. */
export function momentumTier(snapshot: Snapshot | undefined, org: string): { tier: MomentumTier; color: string } {
  const entry = snapshot?.byLogin.get(org.toLowerCase());
  if (!entry) return { tier: 'untracked', color: 'lightgrey' };
  const found = MOMENTUM_TIERS.find((t) => entry.scores.composite >= t.minComposite) ?? MOMENTUM_TIERS.at(-1)!;
  return { tier: found.tier, color: found.color };
}

export function momentumBadge(snapshot: Snapshot | undefined, org: string): Promise<string> {
  const { tier, color } = momentumTier(snapshot, org);
  return badge({ label: 'momentum', message: tier, color });
}
