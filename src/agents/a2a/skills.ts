import { z } from 'zod';
import { sectors } from '../../domain/sectors.js';
import { SECTOR_SLUGS, type SectorSlug } from '../../schemas/enums.js';
import { SEARCH_TYPES } from '../../schemas/answers.js';
import { findTool, type AnyAgentTool } from '../registry.js';

/**
 * The five A2A skills of the interface, each one registry tool (its base answer is that tool's answer), with
 * arguments that reach further where it fits: a stored `period` and a `limit` for the lists; a startup's `history`,
 * a `compare` with others, or the paid `deep` profile for one startup; the stored periods, a `question` answered
 * with citations, or a site `search` for the summary. A message picks its skill with a data part
 * (`{"skill": "sector", "arguments": {"sector": "robotics"}}`, the tool name works too) or, failing that, from its
 * text (see chooseSkillFromText).
 */
export interface A2aSkill {
  id: string;
  tool: AnyAgentTool;
  /** The skill's arguments: a strict object (an unknown argument is refused, naming it). */
  args: z.ZodObject;
  /** One line per argument beyond the tool's, for the agent card. */
  argumentsHelp: string;
  tags: string[];
  examples: string[];
}

const periodSlug = z
  .string()
  .regex(/^\d{4}-w\d{2}$/, 'must be a period slug such as 2026-w47')
  .describe('A stored weekly period (slug, e.g. 2026-w47); default the current one.');
const startupName = z.string().min(1).max(100);
const question = z.string().trim().min(1).max(280);

const TrendingArgs = z.object({ period: periodSlug.optional(), limit: z.int().min(1).max(20).optional() }).strict();
const SectorArgs = z
  .object({
    sector: z.enum(SECTOR_SLUGS).describe('Sector slug, one of the 15.'),
    period: periodSlug.optional(),
    limit: z.int().min(1).max(100).optional(),
  })
  .strict();
const StartupArgs = z
  .object({
    name: startupName.describe('Startup display name or GitHub organisation slug.'),
    period: periodSlug.optional(),
    history: z.boolean().optional().describe('The startup over every stored week.'),
    compare: z.array(startupName).min(1).max(4).optional().describe('Up to 4 other startups to compare it with.'),
    deep: z.boolean().optional().describe('The paid Deep Signal profile (one credit per match, Bearer key).'),
  })
  .strict()
  .refine((a) => [a.history, a.compare !== undefined, a.deep, a.period !== undefined].filter(Boolean).length <= 1, {
    message: 'use at most one of period, history, compare and deep',
  });
const SummaryArgs = z
  .object({
    period: periodSlug.optional(),
    periods: z.boolean().optional().describe('List the stored periods.'),
    question: question.optional().describe('A question, answered with its citations (as GET /api/answer).'),
    search: question.optional().describe('A site search (as GET /api/llms-search).'),
    type: z.enum(SEARCH_TYPES).optional().describe('With search: only hits of this type.'),
    limit: z.int().min(1).max(50).optional().describe('With search: at most this many hits (default 10).'),
  })
  .strict()
  .refine(
    (a) =>
      [a.periods, a.question !== undefined, a.search !== undefined, a.period !== undefined].filter(Boolean).length <= 1,
    {
      message: 'use at most one of period, periods, question and search',
    },
  )
  .refine((a) => a.search !== undefined || (a.type === undefined && a.limit === undefined), {
    message: 'type and limit go with search',
  });
const MethodologyArgs = z.object({}).strict();

function skill(
  id: string,
  toolName: string,
  args: z.ZodType,
  argumentsHelp: string,
  tags: string[],
  examples: string[],
): A2aSkill {
  return { id, tool: findTool(toolName)!, args: args as z.ZodObject, argumentsHelp, tags, examples };
}

export const A2A_SKILLS: readonly A2aSkill[] = [
  skill(
    'trending',
    'get_trending_startups',
    TrendingArgs,
    'Arguments: period (a stored week, e.g. "2026-w47"), limit (1–20).',
    ['startups', 'trending', 'signals'],
    ['Which startups are trending this week?', '{"skill": "trending", "arguments": {"limit": 5}}'],
  ),
  skill(
    'sector',
    'search_startups_by_sector',
    SectorArgs,
    'Arguments: sector (required, one of the 15 slugs), period, limit (1–100).',
    ['startups', 'sector', 'ranking'],
    ['Top robotics startups', '{"skill": "sector", "arguments": {"sector": "healthcare"}}'],
  ),
  skill(
    'startup-signal',
    'get_startup_signal',
    StartupArgs,
    'Arguments: name (required); and at most one of period, history: true (every stored week), compare: [names] (up to 4), deep: true (paid Deep Signal: one credit per match with Authorization: Bearer <key>; a miss is free). All but the plain lookup match names exactly (name, slug or alias; period, history and compare also a misspelt generic word beside the exact distinctive ones, deep never a typo).',
    ['startup', 'lookup', 'signal', 'history', 'compare', 'deep signal'],
    [
      'What is the signal for Acme?',
      '{"skill": "startup-signal", "arguments": {"name": "Acme", "history": true}}',
      '{"skill": "startup-signal", "arguments": {"name": "Acme", "deep": true}}',
    ],
  ),
  skill(
    'summary',
    'get_signals_summary',
    SummaryArgs,
    'Arguments: at most one of period, periods: true (the stored weeks), question (answered with citations), search (site search, with type and limit).',
    ['summary', 'period', 'formats', 'answers', 'search'],
    [
      'Give me a summary of this period',
      '{"skill": "summary", "arguments": {"periods": true}}',
      '{"skill": "summary", "arguments": {"question": "Do credits expire?"}}',
    ],
  ),
  skill(
    'methodology',
    'get_methodology',
    MethodologyArgs,
    'No arguments.',
    ['methodology', 'how it works'],
    ['How are the signals computed?'],
  ),
];

export type TrendingArgs = z.infer<typeof TrendingArgs>;
export type SectorArgs = z.infer<typeof SectorArgs>;
export type StartupArgs = z.infer<typeof StartupArgs>;
export type SummaryArgs = z.infer<typeof SummaryArgs>;

/** A skill with its (still unchecked) arguments, and whether the choice came from free text. */
export interface SkillChoice {
  skill: A2aSkill;
  args: unknown;
  /** Read from a text part (not a data part naming the skill). */
  fromText?: boolean;
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

const LOOKUP_PREFIX =
  /^(please\s+)?((what|how)('s|\s+is|\s+are)\s+)?(the\s+)?(signal|signals|data|metrics|numbers|status)\s+(for|of|on)\s+/i;
const LOOKUP_VERB = /^(look\s*up|lookup|find|show( me)?|check)\s+/i;

/** "What is the signal for Acme?" → "Acme". */
export function startupNameInText(text: string): string {
  return text
    .trim()
    .replace(LOOKUP_PREFIX, '')
    .replace(LOOKUP_VERB, '')
    .replace(/[?!.]+$/, '')
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim();
}

/** True when the text asks for a startup's signal in so many words ("signal for X", "look up X"). */
export function asksForLookup(text: string): boolean {
  const t = text.trim();
  return LOOKUP_PREFIX.test(t) || LOOKUP_VERB.test(t);
}

/**
 * The skill a plain-text message asks for, by its words: a sector named → sector; "methodology" / "how … computed"
 * → methodology; "summary" / "overview" → summary; "trending" / "top" → trending; "signal for X" / "look up X" →
 * startup-signal. Anything else is undecided here: the executor then tries the text as a startup name and as a
 * question, and answers that it cannot help when neither fits.
 */
export function chooseSkillFromText(text: string): SkillChoice | undefined {
  const sector = sectorInText(text);
  if (sector) return { skill: byId('sector'), args: { sector }, fromText: true };
  if (/\bmethodolog|\bhow\b.*\b(computed|calculated|measured|scored|ranked)\b|\bpipeline\b/i.test(text)) {
    return { skill: byId('methodology'), args: {}, fromText: true };
  }
  if (/\b(summary|summarise|summarize|overview|this period|how many)\b/i.test(text)) {
    return { skill: byId('summary'), args: {}, fromText: true };
  }
  if (/\b(trending|hottest|fastest|leaders?|leaderboard)\b|\btop\s+(\d+\s+)?startups?\b/i.test(text)) {
    return { skill: byId('trending'), args: {}, fromText: true };
  }
  if (asksForLookup(text)) {
    const name = startupNameInText(text);
    if (name) return { skill: byId('startup-signal'), args: { name }, fromText: true };
  }
  return undefined;
}
