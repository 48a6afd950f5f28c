import { sectors } from '../../domain/sectors.js';
import type { SectorSlug } from '../../schemas/enums.js';
import type { Methodology } from '../../schemas/documents.js';
import type { Sector, Startup } from '../../schemas/signals.js';
import { findTool, type AnyAgentTool } from '../registry.js';

/**
 * The five A2A skills, each one registry tool. A message picks its skill with a data part
 * (`{"skill": "sector", "arguments": {"sector": "robotics"}}`, the tool name works too) or, failing that, from its
 * text: a sector named → sector; "methodology" / "how … computed" → methodology; "summary" / "overview" → summary;
 * "trending" / "top" → trending; anything else is read as a startup name.
 */
export interface A2aSkill {
  id: string;
  tool: AnyAgentTool;
  tags: string[];
  examples: string[];
}

function skill(id: string, toolName: string, tags: string[], examples: string[]): A2aSkill {
  return { id, tool: findTool(toolName)!, tags, examples };
}

export const A2A_SKILLS: readonly A2aSkill[] = [
  skill(
    'trending',
    'get_trending_startups',
    ['startups', 'trending', 'signals'],
    ['Which startups are trending this week?'],
  ),
  skill(
    'sector',
    'search_startups_by_sector',
    ['startups', 'sector', 'ranking'],
    ['Top robotics startups', '{"skill": "sector", "arguments": {"sector": "healthcare"}}'],
  ),
  skill('startup-signal', 'get_startup_signal', ['startup', 'lookup', 'signal'], ['What is the signal for Acme?']),
  skill('summary', 'get_signals_summary', ['summary', 'period', 'formats'], ['Give me a summary of this period']),
  skill('methodology', 'get_methodology', ['methodology', 'how it works'], ['How are the signals computed?']),
];

export interface SkillChoice {
  skill: A2aSkill;
  args: unknown;
}

export function skillById(idOrTool: string): A2aSkill | undefined {
  return A2A_SKILLS.find((s) => s.id === idOrTool || s.tool.name === idOrTool);
}

const byId = (id: string) => skillById(id)!;
const sectorPatterns = sectors.map((s) => ({
  slug: s.slug,
  pattern: new RegExp(
    `\\b(${[s.slug, s.slug.replace(/-/g, ' '), s.name].map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`,
    'i',
  ),
}));

export function sectorInText(text: string): SectorSlug | undefined {
  return sectorPatterns.find((s) => s.pattern.test(text))?.slug;
}

/** "What is the signal for Acme?" → "Acme". */
export function startupNameInText(text: string): string {
  return text
    .trim()
    .replace(
      /^(please\s+)?((what|how)('s|\s+is|\s+are)\s+)?(the\s+)?(signal|signals|data|metrics|numbers|status)\s+(for|of|on)\s+/i,
      '',
    )
    .replace(/^(look\s*up|lookup|find|show( me)?|check)\s+/i, '')
    .replace(/[?!.]+$/, '')
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim();
}

export function chooseSkillFromText(text: string): SkillChoice {
  const sector = sectorInText(text);
  if (sector) return { skill: byId('sector'), args: { sector } };
  if (/\bmethodolog|\bhow\b.*\b(computed|calculated|measured|scored|ranked)\b|\bpipeline\b/i.test(text)) {
    return { skill: byId('methodology'), args: {} };
  }
  if (/\b(summary|summarise|summarize|overview|this period|how many)\b/i.test(text)) {
    return { skill: byId('summary'), args: {} };
  }
  if (/\b(trending|top|hottest|fastest|leaders?|leaderboard)\b/i.test(text)) {
    return { skill: byId('trending'), args: {} };
  }
  return { skill: byId('startup-signal'), args: { name: startupNameInText(text) } };
}

/** A short plain-English answer to go with the structured data. */
export function describeResult(skillId: string, result: Record<string, unknown>): string {
  const labels = (result['labels'] ?? []) as { signalStrength?: string }[];
  const strength = (i: number) => (labels[i]?.signalStrength ? `, ${labels[i].signalStrength} evidence` : '');
  const list = (startups: Startup[]) =>
    startups
      .slice(0, 5)
      .map((s, i) => `${i + 1}. ${s.name} (${s.signalType}${strength(i)}, commits ${s.commitVelocityChange})`)
      .join('; ');
  switch (skillId) {
    case 'trending': {
      const r = result as { period: { name: string }; startups: Startup[] };
      return `Trending startups, ${r.period.name}: ${list(r.startups)}. Full list of ${r.startups.length} in the data part.`;
    }
    case 'sector': {
      const r = result as unknown as Sector;
      return `${r.name}: ${r.startupCount} tracked startups. Leaders: ${list(r.startups) || 'none yet'}.`;
    }
    case 'startup-signal': {
      const r = result as { found: boolean; startup?: Startup; signalEvidence?: string };
      if (!r.found || !r.startup) return 'No tracked startup matches that name.';
      const s = r.startup;
      return `${s.name}: ${s.commitVelocity14d} commits in 14 days (${s.commitVelocityChange}), ${s.contributors} contributors (${s.contributorGrowth}), ${s.newRepos} new repositories; signal: ${r.signalEvidence ?? s.signalType}.`;
    }
    case 'summary': {
      const r = result as {
        meta: { name: string; period: { name: string }; totalStartups: number; totalSectors: number };
      };
      return `${r.meta.name}, ${r.meta.period.name}: ${r.meta.totalStartups} startups across ${r.meta.totalSectors} sectors.`;
    }
    case 'methodology': {
      const r = result as unknown as Methodology;
      return `${r.name}: ${r.step.map((s) => s.name).join(' → ')}. ${r.url}`;
    }
    default:
      return JSON.stringify(result);
  }
}
