import type { SignalStrength, SignalType } from '../schemas/enums.js';
import type { SignalEvidence } from './records.js';
import { LEGACY_RULE, LEGACY_SIGNAL_RULE, NEW_REPO_DAYS, RANKED_STRENGTHS } from './rules.js';

/**
 * What every published record carries beside its signal type: how strongly the measured evidence supports the type,
 * and the evidence in one line. Read from the metrics stored with the record (`signalEvidence`, written by the
 * classify stage), so the JSON lines, the CSV, Deep Signal, the agent tools and the site all say the same.
 */
export interface SignalLabel {
  signalStrength: SignalStrength;
  /** One line: the type, its strength and the evidence measured for it, or that there was none. */
  signalEvidence: string;
  /**
   * What the record says, in a few words: its signal type when evidence supports it (strong or weak), otherwise
   * NO_CLEAR_SIGNAL. The signal type field always holds one of the contract's four values; with no evidence it is a
   * placeholder, so every surface shows this instead.
   */
  signalFinding: string;
}

/** Shown instead of the signal type when no type has evidence behind it. */
export const NO_CLEAR_SIGNAL = 'No clear signal this week';
/** The evidence line of such a record. */
export const NO_CLEAR_SIGNAL_SUMMARY =
  "No clear signal this week: no signal type has evidence behind it (the signal type field holds the tie order's placeholder, not a finding)";

/** Whether a label is a finding (its type has evidence), as opposed to the placeholder of a week without one. */
export function isFinding(label: Pick<SignalLabel, 'signalStrength'>): boolean {
  return label.signalStrength !== 'none';
}

function finding(type: SignalType, strength: SignalStrength): string {
  return strength === 'none' ? NO_CLEAR_SIGNAL : type;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Weeks classified by the older rule (activity-v1) stored no evidence per type, only the metrics the rule read. Its
 * first three types are given only when their rule holds (strong); Deploy frequency spike is the type left when no
 * rule holds, with nothing measured for it (none). A rule the stored numbers do not show holding is not claimed.
 */
function legacyLabel(type: SignalType, m: Readonly<Record<string, unknown>>): SignalLabel {
  const rule = `rule ${LEGACY_SIGNAL_RULE}`;
  const none = (why: string): SignalLabel => ({
    signalStrength: 'none',
    signalEvidence: `${NO_CLEAR_SIGNAL}: ${why}`,
    signalFinding: NO_CLEAR_SIGNAL,
  });
  const strong = (evidence: string): SignalLabel => ({
    signalStrength: 'strong',
    signalEvidence: `${type} (strong evidence, ${rule}): ${evidence}`,
    signalFinding: type,
  });
  switch (type) {
    case 'Engineering hiring burst': {
      const current = num(m['contributorsCurrent']);
      const prior = num(m['contributorsPrior']);
      const pct = num(m['contributorChangePct']);
      if (
        current !== undefined &&
        prior !== undefined &&
        pct !== undefined &&
        pct >= LEGACY_RULE.hiringMinGrowthPct &&
        current - prior >= LEGACY_RULE.hiringMinNewContributors
      ) {
        const growth = typeof m['contributorGrowth'] === 'string' ? ` (${m['contributorGrowth']})` : '';
        return strong(`${current} contributors against ${prior}${growth}`);
      }
      break;
    }
    case 'Infrastructure buildout': {
      const repos = num(m['newRepos30d']);
      if (repos !== undefined && repos >= LEGACY_RULE.infraMinNewRepos) {
        return strong(`${plural(repos, 'repository', 'repositories')} created in the last ${NEW_REPO_DAYS} days`);
      }
      break;
    }
    case 'Framework migration': {
      const languages = Array.isArray(m['newLanguages']) ? (m['newLanguages'] as unknown[]).map(String) : [];
      if (languages.length >= LEGACY_RULE.migrationMinNewLanguageRepos) {
        return strong(
          `a repository created in the last ${NEW_REPO_DAYS} days in a language no older repository uses (${languages.join(', ')})`,
        );
      }
      break;
    }
    case 'Deploy frequency spike':
      return none(`no evidence (${rule} gives ${type} when no other type's rule holds; deploys were not measured)`);
  }
  return none(`no evidence recorded for ${type} (${rule})`);
}

/**
 * The label of a record from the metrics stored with it: the strength and summary the classify stage wrote (rule
 * evidence-v2), or for a week of the older rule, what its stored numbers show. A record with no evidence at all says
 * so.
 */
export function signalLabel(type: SignalType, metrics: Readonly<Record<string, unknown>> | undefined): SignalLabel {
  const m = metrics ?? {};
  const evidence = m['signalEvidence'] as SignalEvidence | undefined;
  if (evidence?.strength) {
    const summary =
      evidence.strength === 'none'
        ? NO_CLEAR_SIGNAL_SUMMARY
        : (evidence.summary ?? `${type} (${evidence.strength} evidence)`);
    return {
      signalStrength: evidence.strength,
      signalEvidence: summary,
      signalFinding: finding(type, evidence.strength),
    };
  }
  if (evidence?.rule === LEGACY_SIGNAL_RULE) return legacyLabel(type, m);
  return {
    signalStrength: 'none',
    signalEvidence: `${NO_CLEAR_SIGNAL}: no evidence recorded for this record`,
    signalFinding: NO_CLEAR_SIGNAL,
  };
}

/** The rank-stage rule: only a type with evidence (RANKED_STRENGTHS) is ranked across sectors, and so can trend. */
export function hasRankableEvidence(label: Pick<SignalLabel, 'signalStrength'>): boolean {
  return (RANKED_STRENGTHS as readonly SignalStrength[]).includes(label.signalStrength);
}
