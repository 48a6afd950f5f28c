import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { AppContext } from '../../app.js';
import { bestAnswer } from '../../core/answers/answer.js';
import { periodRef, storedPeriod } from '../../core/periods/reads.js';
import { resolveStartup, resolveStrict } from '../../core/signals/resolve.js';
import { ServiceError } from '../../domain/errors.js';
import { authenticate } from '../../payments/authenticate.js';
import { idempotencyKeyOf } from '../../payments/paid-call.js';
import type { Sector, Startup } from '../../schemas/signals.js';
import type { Methodology } from '../../schemas/documents.js';
import type { AnswerHit } from '../../schemas/answers.js';
import type { PeriodInfo, Snapshot } from '../../snapshot/snapshot.js';
import { runTool } from '../invoke.js';
import { findTool, type AgentToolName, type ToolEnv } from '../registry.js';
import type { A2aSkill, SectorArgs, SkillChoice, StartupArgs, SummaryArgs, TrendingArgs } from './skills.js';

/**
 * What a skill answers: a short plain-English text, the structured result, and the capability that produced it (the
 * registry tool for a base answer, or the extension: history, compare, deep-signal, periods, answer, search).
 * A failure is a ServiceError, which the executor turns into a failed task.
 */
export interface SkillAnswer {
  text: string;
  data: Record<string, unknown>;
  capability: string;
  /** Extra task metadata (the credit balance after a paid call). */
  metadata?: Record<string, unknown>;
}

/** What the caller sent beside the message: its Authorization header, and what makes a paid call idempotent. */
export interface SkillCall {
  authorization: string | undefined;
  /** The Idempotency-Key header, or one derived from the A2A messageId (a re-sent message is not charged twice). */
  idempotencyKey: string | undefined;
}

export type SkillRunner = (choice: SkillChoice, call: SkillCall) => Promise<SkillAnswer>;

/** The Idempotency-Key a paid A2A call uses: the header when sent, else the message id (hashed to a fixed size). */
export function idempotencyKeyFor(header: string | undefined, messageId: string): string | undefined {
  if (header) return header;
  if (!messageId) return undefined;
  return `a2a-${createHash('sha256').update(messageId).digest('hex').slice(0, 40)}`;
}

function invalid(location: string, message: string): ServiceError {
  return new ServiceError(
    'invalid-argument',
    { location, message },
    { extensions: { errors: [{ location, message }] } },
  );
}

/** A skill's arguments checked against its strict schema: an unknown or bad argument is named in the error. */
export function parseArguments<T>(skill: A2aSkill, args: unknown): T {
  const parsed = (skill.args as z.ZodType).safeParse(args ?? {});
  if (parsed.success) return parsed.data as T;
  const errors = parsed.error.issues.map((issue) => ({
    location: ['arguments', ...issue.path.map(String)].join('.'),
    message:
      issue.code === 'unrecognized_keys'
        ? `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
        : issue.message,
  }));
  throw new ServiceError('invalid-skill-arguments', { skill: skill.id, errors }, { extensions: { errors } });
}

/**
 * A stored period by slug (the current one answers undefined: the base answer serves it). A period not stored is a
 * bad argument of the skill, named as such.
 */
function pastPeriod(snapshot: Snapshot, slug: string | undefined): PeriodInfo | undefined {
  if (slug === undefined || slug === snapshot.period.slug) return undefined;
  const period = storedPeriod(snapshot, slug);
  if (!period) {
    const first = snapshot.periods[0]?.slug ?? snapshot.period.slug;
    throw invalid(
      'arguments.period',
      `no stored period ${slug}; stored periods run from ${first} to ${snapshot.period.slug}`,
    );
  }
  return period;
}

function list(startups: readonly Startup[], labels: readonly { signalStrength?: string }[] = []): string {
  return startups
    .slice(0, 5)
    .map((s, i) => {
      const strength = labels[i]?.signalStrength ? `, ${labels[i].signalStrength} evidence` : '';
      return `${i + 1}. ${s.name} (${s.signalType}${strength}, commits ${s.commitVelocityChange})`;
    })
    .join('; ');
}

/** A startup resolved by the strict rule (exact name, slug or alias, or a misspelt generic word), or the miss to answer. */
function strictStartup(snapshot: Snapshot, name: string) {
  const { how, item, candidates } = resolveStrict(snapshot, name);
  if (item) return { found: true as const, item, nameMatch: how };
  return {
    found: false as const,
    miss: { found: false, name, nameMatch: how, ...(candidates.length ? { candidates } : {}) },
  };
}

function describeMiss(name: string, candidates?: { name: string }[]): string {
  const hint = candidates?.length ? ` Did you mean ${candidates.map((c) => c.name).join(', ')}?` : '';
  return `No tracked startup is named "${name}".${hint}`;
}

export function skillRunner(ctx: AppContext): SkillRunner {
  const { urls } = ctx;
  const baseUrl = urls.base;

  const envOf = (call: SkillCall): ToolEnv => ({
    ctx,
    authenticate: () => authenticate(ctx.store.db, call.authorization),
  });
  const base = async (skill: A2aSkill, args: Record<string, unknown>, call: SkillCall) =>
    runTool(skill.tool, args, envOf(call));
  /** A registry tool's answer: every period read is the tools' own, so A2A answers what the tools answer. */
  const tool = async <T>(name: AgentToolName, args: Record<string, unknown>, call: SkillCall): Promise<T> =>
    (await runTool(findTool(name)!, args, envOf(call))) as T;

  async function trending(skill: A2aSkill, args: TrendingArgs, call: SkillCall): Promise<SkillAnswer> {
    const past = pastPeriod(ctx.holder.published(), args.period);
    const data = await tool<{ period: { slug: string; name: string }; startups: Startup[]; labels: [] }>(
      'get_trending_startups_in_period',
      { ...(past ? { period: past.slug } : {}), ...(args.limit !== undefined ? { limit: args.limit } : {}) },
      call,
    );
    return {
      capability: skill.tool.name,
      data,
      text: `Trending startups, ${data.period.name}: ${list(data.startups, data.labels)}. ${data.startups.length} in the data part.`,
    };
  }

  async function sector(skill: A2aSkill, args: SectorArgs, call: SkillCall): Promise<SkillAnswer> {
    const past = pastPeriod(ctx.holder.published(), args.period);
    const data = await tool<Sector & { labels: [] }>(
      'search_startups_by_sector_in_period',
      {
        sector: args.sector,
        ...(past ? { period: past.slug } : {}),
        ...(args.limit !== undefined ? { limit: args.limit } : {}),
      },
      call,
    );
    const when = past ? `, ${past.name}` : '';
    return {
      capability: skill.tool.name,
      data,
      text: `${data.name}${when}: ${data.startupCount} tracked startups. Leaders: ${list(data.startups, data.labels) || 'none yet'}.`,
    };
  }

  async function startupSignal(skill: A2aSkill, args: StartupArgs, call: SkillCall): Promise<SkillAnswer> {
    const snapshot = ctx.holder.published();
    if (args.deep) return deep(args.name, call);
    if (args.compare) return compare([args.name, ...args.compare], call);
    if (args.history) return history(args.name, call);
    const past = pastPeriod(snapshot, args.period);
    if (past) return inPeriod(args.name, past, call);
    // The plain lookup is GET /api/signal's, confident typos included.
    const data = await base(skill, { name: args.name }, call);
    const r = data as { found: boolean; startup?: Startup; signalEvidence?: string; candidates?: { name: string }[] };
    const s = r.startup;
    return {
      capability: skill.tool.name,
      data,
      text:
        r.found && s
          ? `${s.name}: ${s.commitVelocity14d} commits in 14 days (${s.commitVelocityChange}), ${s.contributors} contributors (${s.contributorGrowth}), ${s.newRepos} new repositories; signal: ${r.signalEvidence ?? s.signalType}.`
          : describeMiss(args.name, r.candidates),
    };
  }

  /** One startup in a stored week: matched strictly here (no typo but a misspelt generic word), then the week as the tool answers it. */
  async function inPeriod(name: string, period: PeriodInfo, call: SkillCall): Promise<SkillAnswer> {
    const snapshot = ctx.holder.published();
    const match = strictStartup(snapshot, name);
    if (!match.found)
      return { capability: 'period', data: match.miss, text: describeMiss(name, match.miss.candidates) };
    const answer = await tool<Record<string, unknown> & { found: boolean; startup?: Startup; rankInSector?: number }>(
      'get_startup_signal_in_period',
      { name: match.item.login, period: period.slug },
      call,
    );
    const data = { ...answer, nameMatch: match.nameMatch };
    const s = answer.startup;
    if (!answer.found || !s) {
      return {
        capability: 'period',
        data: { ...data, name: match.item.startup.name },
        text: `${match.item.startup.name} was not tracked in ${period.name}.`,
      };
    }
    return {
      capability: 'period',
      data,
      text: `${s.name}, ${period.name}: ${s.commitVelocity14d} commits in 14 days (${s.commitVelocityChange}), ${s.contributors} contributors, rank ${answer.rankInSector} in its sector.`,
    };
  }

  /** The startup over every stored week, as get_startup_history answers it (its weeks under `periods`). */
  async function history(name: string, call: SkillCall): Promise<SkillAnswer> {
    const { history: periods, ...answer } = await tool<{
      found: boolean;
      name?: string;
      candidates?: { name: string }[];
      history: { periodName: string; commitVelocity14d: number; rankInSector: number }[];
    }>('get_startup_history', { name }, call);
    if (!answer.found) {
      return { capability: 'history', data: { ...answer, name }, text: describeMiss(name, answer.candidates) };
    }
    const first = periods[0];
    const last = periods.at(-1);
    return {
      capability: 'history',
      data: { ...answer, periods },
      text:
        first && last
          ? `${answer.name} over ${periods.length} stored week${periods.length === 1 ? '' : 's'} (${first.periodName} to ${last.periodName}): commits in 14 days ${first.commitVelocity14d} → ${last.commitVelocity14d}, rank in sector ${first.rankInSector} → ${last.rankInSector}.`
          : `${answer.name} has no stored history.`,
    };
  }

  /** Startups side by side as compare_startups answers them: the found ones (each once), the misses named. */
  async function compare(names: string[], call: SkillCall): Promise<SkillAnswer> {
    type Entry = Record<string, unknown> & {
      query: string;
      found: boolean;
      org?: string;
      sector?: string;
      rankInSector?: number;
      startup?: Startup;
    };
    const answer = await tool<{ period: { slug: string; name: string }; startups: Entry[]; leader?: string }>(
      'compare_startups',
      { names },
      call,
    );
    const startups: (Entry & { name: string; startup: Startup; org: string })[] = [];
    const misses: Record<string, unknown>[] = [];
    for (const entry of answer.startups) {
      const { query, ...rest } = entry;
      if (!entry.found || !entry.startup || !entry.org) misses.push({ ...rest, name: query });
      else if (!startups.some((s) => s.org === entry.org)) {
        startups.push({
          ...entry,
          org: entry.org,
          startup: entry.startup,
          name: entry.startup.name,
          url: urls.startup(entry.org),
        });
      }
    }
    const lines = startups.map(
      (s) =>
        `${s.name}: ${s.startup.commitVelocity14d} commits in 14 days (${s.startup.commitVelocityChange}), ${s.startup.contributors} contributors, rank ${s.rankInSector} in ${s.sector}`,
    );
    const missed = misses.map((m) => `"${m['name']}" is not tracked`);
    return {
      capability: 'compare',
      data: { period: answer.period, startups, misses, ...(answer.leader ? { leader: answer.leader } : {}) },
      text: [...lines, ...missed].join('; ') + '.',
    };
  }

  /** The paid Deep Signal as the get_deep_signal tool answers it: the same key rule, charge and errors. */
  async function deep(name: string, call: SkillCall): Promise<SkillAnswer> {
    let balance: number | undefined;
    let replayed = false;
    const body = (await runTool(
      findTool('get_deep_signal')!,
      { name },
      {
        ...envOf(call),
        idempotencyKey: idempotencyKeyOf(call.idempotencyKey),
        creditsBalance: (left) => (balance = left),
        replayed: () => (replayed = true),
      },
    )) as Record<string, unknown> & { found: boolean; name?: string; thesis?: string };
    const missCandidates = body['candidates'] as { name: string }[] | undefined;
    return {
      capability: 'get_deep_signal',
      data: body,
      metadata: { creditsBalance: balance, ...(replayed ? { replayed: true } : {}) },
      text: body.found
        ? `${body.name}: ${body.thesis ?? 'Deep Signal'} (1 credit charged; ${balance} left).`
        : `${describeMiss(name, missCandidates)} Nothing was charged.`,
    };
  }

  async function summary(skill: A2aSkill, args: SummaryArgs, call: SkillCall): Promise<SkillAnswer> {
    const snapshot = ctx.holder.published();
    if (args.periods) {
      // As list_periods answers, with the current period named by its slug.
      const answer = await tool<{ current: { slug: string; name: string }; periods: { name: string }[] }>(
        'list_periods',
        {},
        call,
      );
      const { periods } = answer;
      return {
        capability: 'periods',
        data: { ...answer, current: answer.current.slug },
        text: `${periods.length} stored weekly period${periods.length === 1 ? '' : 's'}, newest ${answer.current.name}, oldest ${periods.at(-1)?.name ?? answer.current.name}.`,
      };
    }
    if (args.question !== undefined) return answerQuestion(args.question, call);
    if (args.search !== undefined) {
      const data = await tool<{ total: number; hits: { title: string; url: string }[] }>(
        'search_site',
        { q: args.search, limit: args.limit ?? 10, ...(args.type !== undefined ? { type: args.type } : {}) },
        call,
      );
      return {
        capability: 'search',
        data,
        text: data.hits.length
          ? `${data.total} page${data.total === 1 ? '' : 's'} match; the first: ${data.hits
              .slice(0, 3)
              .map((h) => `${h.title} (${h.url})`)
              .join('; ')}.`
          : `No page matches "${args.search}".`,
      };
    }
    const past = pastPeriod(snapshot, args.period);
    if (past) {
      return {
        capability: 'period',
        data: {
          period: periodRef(past),
          publishedAt: past.publishedAt.toISOString(),
          startupsTracked: past.startupsTracked,
          dataset: past.dataset,
          url: urls.period(past.slug),
        },
        text: `${past.name}: ${past.startupsTracked} startups tracked, published ${past.publishedAt.toISOString().slice(0, 10)}.`,
      };
    }
    const data = await base(skill, {}, call);
    const r = data as { meta: { name: string; period: { name: string }; totalStartups: number; totalSectors: number } };
    return {
      capability: skill.tool.name,
      data,
      text: `${r.meta.name}, ${r.meta.period.name}: ${r.meta.totalStartups} startups across ${r.meta.totalSectors} sectors.`,
    };
  }

  /** A question answered as the ask tool answers it (a miss also says what was asked). */
  async function answerQuestion(question: string, call: SkillCall): Promise<SkillAnswer> {
    const answer = await tool<{ found: boolean; answer?: AnswerHit; detail?: string }>('ask', { question }, call);
    if (answer.found && answer.answer) {
      const hit = answer.answer;
      const sources = hit.facts.map((f) => f.sourceUrl);
      return {
        capability: 'answer',
        data: answer,
        text: `${hit.answer} (${hit.url}${sources.length ? `; sources: ${sources.join(', ')}` : ''})`,
      };
    }
    return { capability: 'answer', data: { ...answer, query: question }, text: answer.detail ?? '' };
  }

  async function methodology(skill: A2aSkill, call: SkillCall): Promise<SkillAnswer> {
    const data = await base(skill, {}, call);
    const r = data as unknown as Methodology;
    return { capability: skill.tool.name, data, text: `${r.name}: ${r.step.map((s) => s.name).join(' → ')}. ${r.url}` };
  }

  return async (choice, call) => {
    const { skill } = choice;
    switch (skill.id) {
      case 'trending':
        return trending(skill, parseArguments<TrendingArgs>(skill, choice.args), call);
      case 'sector':
        return sector(skill, parseArguments<SectorArgs>(skill, choice.args), call);
      case 'startup-signal':
        return startupSignal(skill, parseArguments<StartupArgs>(skill, choice.args), call);
      case 'summary':
        return summary(skill, parseArguments<SummaryArgs>(skill, choice.args), call);
      default:
        parseArguments(skill, choice.args);
        return methodology(skill, call);
    }
  };
}

/** Why a text was not taken up: one sentence, and what the agent offers instead. */
export interface NotForMe {
  reject: string;
  suggestions: { question: string; url: string }[];
}

/**
 * What a text that names no skill is: a tracked startup's name (the plain lookup, as GET /api/signal), a question
 * the answer service can answer or explain (the summary skill's `question`), or nothing the agent does (the
 * executor rejects the task, saying why and what it can do).
 */
export function skillForText(
  snapshot: Snapshot,
  baseUrl: string,
  text: string,
  skills: { startup: A2aSkill; summary: A2aSkill },
): SkillChoice | NotForMe {
  const name = text.trim().replace(/[?!.]+$/, '');
  if (name.length >= 1 && name.length <= 100 && resolveStartup(snapshot, name).resolution.status === 'match') {
    return { skill: skills.startup, args: { name }, fromText: true };
  }
  const question = text.trim().slice(0, 280);
  const best = bestAnswer(snapshot, baseUrl, question);
  if (best.found || best.reason === 'not-tracked' || best.reason === 'ambiguous' || best.reason === 'no-sector') {
    return { skill: skills.summary, args: { question }, fromText: true };
  }
  const why =
    best.reason === 'out-of-scope'
      ? best.detail
      : `This agent does not know how to help with "${question.slice(0, 100)}".`;
  return { reject: why, suggestions: best.suggestions };
}
