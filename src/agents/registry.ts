import { z } from 'zod';
import { diligenceDossier } from '../core/diligence/dossier.js';
import { backtestReport } from '../core/backtest/report.js';
import { signalsSummary } from '../core/signals/summary.js';
import type { Outcome } from '../domain/errors.js';
import type { AppContext } from '../app.js';
import type { KeyAccount } from '../payments/keys.js';
import { withPurchaseHelp } from '../payments/paid-call.js';
import { paidDeepSignal } from '../payments/paid-deep-signal.js';
import { DiligenceResponse } from '../schemas/answers.js';
import { BacktestReport } from '../schemas/backtest.js';
import { DeepSignal, DeepSignalMiss } from '../schemas/deep-signal.js';
import { Methodology } from '../schemas/documents.js';
import {
  GITHUB_USERNAME_PATTERN,
  GITHUB_USERNAME_SCHEMA_PATTERN,
  SECTOR_SLUGS,
  SectorSlug,
  SignalStrength,
} from '../schemas/enums.js';
import { ScoutReceipts } from '../schemas/scout.js';
import {
  EvidenceDetails,
  Meta,
  Period,
  Sector,
  SignalCandidate,
  SignalLabel,
  Startup,
  signalLabelFields,
  stageFields,
} from '../schemas/signals.js';
import { resolveStartup, resolveStrict, startupCandidates, NAME_MATCH_VALUES } from '../core/signals/resolve.js';
import { bestAnswer } from '../core/answers/answer.js';
import { toHit } from '../core/answers/answer-index.js';
import { siteSearch } from '../core/search/documents.js';
import { ServiceError } from '../domain/errors.js';
import {
  AnswerHit,
  QueryText,
  RelatedQuestion,
  SEARCH_LIMIT,
  SEARCH_TYPES,
  SearchResponse,
} from '../schemas/answers.js';
import {
  compareStartups,
  history,
  PERIOD_SLUG_PATTERN,
  periodInfo,
  periodRef,
  sectorRanking,
  startupInPeriod,
  storedPeriods,
  trending,
  type PeriodStartup,
} from '../core/periods/reads.js';
import { TRENDING_SIZE } from '../domain/rules.js';

/**
 * The agent tools, declared once: the interface's eight with exactly the interface's arguments, then the service's
 * own (the period-aware and paged forms of three of them, search, ask, history, compare, periods). MCP tools (stdio
 * and HTTP), the OpenAI / Anthropic / Gemini function definitions, A2A skills, /api/agent/call, the MCP manifest, the agents catalog (/api/agents.json) and the OpenAPI
 * `x-mcp-tool` links are all generated from this list. Each entry holds what every surface must agree on: name,
 * title, description, argument schema (a strict object with the interface's bounds), output schema, annotations, the
 * REST analog, and the handler, which calls the same core function as the REST route.
 */

/** Where the username rule lives (a schema module, so the scout's schemas can use it without importing this). */
export { GITHUB_USERNAME_PATTERN };

const name = z.string().min(1).max(100);

export interface ToolAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  destructiveHint: boolean;
  /** True when the tool reaches beyond the published snapshot (a live GitHub look-up). */
  openWorldHint: boolean;
}

export interface RestAnalog {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path on the service, relative to the base URL. */
  path: string;
  note: string;
}

/** What a handler may use: the service's context and, for the paid tool, the caller's credit-pack account. */
export interface ToolEnv {
  ctx: AppContext;
  /**
   * Opens the caller's credit-pack account, or says why not (src/payments/authenticate.ts): from the
   * `Authorization` header on HTTP surfaces, from SIGNAL_API_KEY in signal-mcp. Only the paid tool calls it, so a
   * free tool never fails for a bad key.
   */
  authenticate(): Promise<Outcome<KeyAccount>>;
  /** Told the key's credit balance after a paid call (the HTTP surface sends it as X-Credits-Balance). */
  creditsBalance?: (balance: number) => void;
  /**
   * The caller's Idempotency-Key for a paid call (the HTTP header, or `idempotencyKey` in an MCP request's `_meta`):
   * a retry with the same key replays the first answer and is charged once (src/payments/paid-deep-signal.ts).
   */
  idempotencyKey?: string | undefined;
  /** Told when a paid call's answer is the replay of an earlier one with the same Idempotency-Key. */
  replayed?: () => void;
  /**
   * An HTTP surface that can tell whether its answer reached the connection: a paid call without an Idempotency-Key
   * is then charged on hold for `seconds` (src/payments/ledger.ts), and `settle` is handed the hold to confirm on
   * delivery or give back (src/http/credit-hold.ts). Without it the charge stands at once.
   */
  holdCharge?: { seconds: number; settle(hold: number): void };
}

export interface AgentToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
> {
  name: string;
  title: string;
  description: string;
  inputSchema: Input;
  /** MCP returns `structuredContent` matching this (the root of an MCP output schema must be an object). */
  outputSchema: Output;
  annotations: ToolAnnotations;
  rest: RestAnalog;
  /** Charged per successful call (credits or x402). */
  paid: boolean;
  /** Answers the tool; errors are thrown as ServiceError values (src/domain/errors.ts), which each surface renders. */
  handler(args: z.output<Input>, env: ToolEnv): z.input<Output> | Promise<z.input<Output>>;
}

const READ: ToolAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  destructiveHint: false,
  openWorldHint: false,
};

/**
 * A copy of a shared resource schema without its registry id: a schema with an id is emitted as a bare `$ref`, and
 * an MCP output schema must say `type: "object"` at its root.
 */
function outputOf<T extends z.ZodObject>(schema: T): T {
  return schema.extend({}) as unknown as T;
}

function tool<Input extends z.ZodObject, Output extends z.ZodObject>(
  definition: AgentToolDefinition<Input, Output>,
): AgentToolDefinition<Input, Output> {
  return definition;
}

/** The optional `period` of the read tools: a stored ISO week; absent, the current period. */
const periodArg = z
  .string()
  .regex(PERIOD_SLUG_PATTERN)
  .describe('ISO week slug of a stored period, e.g. 2026-w47 (list_periods names them). Absent: the current one.');

const nameMatch = z
  .enum(NAME_MATCH_VALUES)
  .describe(
    'How the name was resolved: exact, slug, alias or typo (a confident typo, get_startup_signal only); ambiguous or none for a miss.',
  );

const candidates = z
  .array(SignalCandidate)
  .optional()
  .describe('On a miss, the "did you mean" startups (never substituted); absent when nothing is close.');

const SignalResult = z.object({
  found: z.boolean().describe('False when no tracked startup matches the name (not an error).'),
  nameMatch: nameMatch.describe(
    'How the name was resolved, as GET /api/signal says in X-Name-Match: exact, slug, alias or typo (a confident typo of a tracked startup); ambiguous or none for a miss.',
  ),
  startup: Startup.optional().describe('The matched startup, exactly as GET /api/signal answers it.'),
  signalStrength: SignalStrength.optional().describe(
    'Beside the startup: how strongly the evidence supports its signalType.',
  ),
  signalEvidence: signalLabelFields.signalEvidence.optional(),
  signalFinding: signalLabelFields.signalFinding.optional(),
  stageSource: stageFields.stageSource.optional(),
  evidenceDetails: EvidenceDetails.optional(),
  candidates: candidates.describe(
    'On a miss, the "did you mean" startups GET /api/signal offers; absent when nothing is close.',
  ),
  period: Period.optional().describe('The period answered, when a `period` was asked for.'),
  sector: SectorSlug.optional().describe('With a `period`: its sector, rank and composite score that week.'),
  rankOverall: z.int().min(1).nullable().optional(),
  rankInSector: z.int().min(1).optional(),
  compositeScore: z.number().min(0).max(100).optional(),
  detail: z
    .string()
    .optional()
    .describe('Why a matched startup has no signal: it was not tracked in the period asked for.'),
});

/** The labels of a list of startups (beside the Startup objects, never inside them), in the same order. */
const Labels = z
  .array(SignalLabel)
  .describe("Each startup's signal strength and evidence, one entry per startup in the same order as `startups`.");

/** A startup's label as the tools give it: its name and type beside the week's strength and evidence. */
function labelOf(s: PeriodStartup): SignalLabel {
  return { name: s.startup.name, signalType: s.startup.signalType, ...s.label, stageSource: s.stageSource };
}

const SummaryResult = z.object({
  meta: Meta,
  sectors: z.array(z.object({ slug: SectorSlug, startupCount: z.int().min(0), url: z.url() })),
  formats: z.record(z.string(), z.url()),
  resources: z.array(z.string()),
});

/** A Deep Signal hit (every field) or miss (`found: false, charged: 0`) in one object, as MCP output schemas must be. */
const DeepSignalResult = DeepSignal.partial().extend({
  found: z
    .boolean()
    .describe(
      'False for an untracked startup: then only `charged` (0) follows, and `candidates` when a name is close.',
    ),
  charged: z.int().min(0).describe('Credits this call consumed: 1 for a tracked startup, 0 for a miss.'),
  // As on the REST and x402 routes: a miss (a typo included, never charged) offers its "did you mean" startups.
  candidates: DeepSignalMiss.shape.candidates,
});

/**
 * The paid tool: the caller's credentials open an account as on the credit route (401 otherwise), then the route's
 * own core function, paidDeepSignal, answers: a miss is free, a hit takes one credit, no credit left is 402. An
 * Idempotency-Key (from the HTTP header or the MCP request's `_meta`) makes a retry replay the first answer, charged
 * once, exactly as on POST /api/agent/deep-signal.
 */
async function deepSignalTool(name: string, env: ToolEnv): Promise<DeepSignal | DeepSignalMiss> {
  const { ctx } = env;
  const baseUrl = ctx.urls.base;
  const authenticated = await env.authenticate();
  if (!authenticated.ok) throw withPurchaseHelp(authenticated.error, baseUrl, undefined);
  const answer = await paidDeepSignal({
    db: ctx.store.db,
    snapshot: ctx.holder.published(),
    account: authenticated.value,
    name,
    idempotencyKey: env.idempotencyKey,
    ...(env.holdCharge ? { holdSeconds: env.holdCharge.seconds } : {}),
  });
  if (answer.hold !== undefined) env.holdCharge?.settle(answer.hold);
  env.creditsBalance?.(answer.balance);
  if (answer.replayed) env.replayed?.();
  if (!answer.outcome.ok) throw withPurchaseHelp(answer.outcome.error, baseUrl, answer.balance);
  return answer.outcome.value;
}

const HistoryEntry = z.object({
  period: z.string().describe('ISO week slug.'),
  periodName: z.string(),
  sector: SectorSlug,
  rankOverall: z.int().min(1).nullable().describe('Rank across all sectors; null when not ranked that week.'),
  rankInSector: z.int().min(1),
  compositeScore: z.number().min(0).max(100),
  commitVelocity14d: z.int().min(0),
  commitVelocityChange: Startup.shape.commitVelocityChange,
  contributors: z.int().min(0),
  contributorGrowth: Startup.shape.contributorGrowth,
  newRepos: z.int().min(0),
  signalType: Startup.shape.signalType,
  signalStrength: SignalStrength,
});

const HistoryResult = z.object({
  found: z.boolean().describe('False when no tracked startup has exactly this name, slug or alias.'),
  nameMatch,
  candidates,
  name: z.string().optional().describe('Display name of the matched startup.'),
  org: z.string().optional().describe('Its GitHub organisation.'),
  url: z.url().optional().describe('Its page, with the chart of these weeks.'),
  periodsStored: z.int().min(0).describe('How many weekly periods are stored in all.'),
  history: z
    .array(HistoryEntry)
    .describe('One entry per stored week the startup was tracked, oldest first (the most recent `limit`).'),
});

const Compared = z.object({
  query: z.string().describe('The name as asked.'),
  found: z.boolean(),
  nameMatch,
  candidates,
  detail: z.string().optional().describe('Why a matched startup has no figures: not tracked in that period.'),
  org: z.string().optional(),
  sector: SectorSlug.optional(),
  rankOverall: z.int().min(1).nullable().optional(),
  rankInSector: z.int().min(1).optional(),
  compositeScore: z.number().min(0).max(100).optional(),
  startup: Startup.optional(),
  signalStrength: SignalStrength.optional(),
  signalEvidence: signalLabelFields.signalEvidence.optional(),
  signalFinding: signalLabelFields.signalFinding.optional(),
});

const CompareResult = z.object({
  period: Period,
  startups: z.array(Compared).describe('One entry per name asked, in the order asked.'),
  leader: z
    .string()
    .optional()
    .describe('Display name of the found startup with the highest composite score (absent with fewer than two found).'),
});

const PeriodsResult = z.object({
  current: Period.describe('The period the tools answer when no `period` is given.'),
  total: z.int().min(0).describe('Stored periods in all.'),
  periods: z
    .array(
      Period.extend({
        publishedAt: z.iso.datetime(),
        startupsTracked: z.int().min(0),
        current: z.boolean(),
        url: z.url(),
      }),
    )
    .describe('Newest first, at most `limit`.'),
});

const AskResult = z.object({
  found: z.boolean().describe('False when no question in the corpus answers with enough confidence (not an error).'),
  answer: AnswerHit.optional().describe(
    'The best answer: its canonical `url` and each fact with the `sourceUrl` that proves it are the citations.',
  ),
  reason: z
    .enum(['no-match', 'not-tracked', 'ambiguous', 'no-sector', 'out-of-scope'])
    .optional()
    .describe('Why there is no answer, as GET /api/answer says it.'),
  detail: z.string().optional(),
  suggestions: z.array(RelatedQuestion).optional(),
  searchUrl: z.url().optional(),
  candidates: z
    .array(z.object({ name: z.string(), why: z.string(), url: z.url() }))
    .optional()
    .describe('For not-tracked or ambiguous: close names ("did you mean"), never substituted.'),
  sectors: z.array(z.string()).optional(),
});

function figures(s: PeriodStartup) {
  return {
    org: s.login,
    sector: s.sector,
    rankOverall: s.rankOverall,
    rankInSector: s.rankInSector,
    compositeScore: s.compositeScore,
    startup: s.startup,
    signalStrength: s.label.signalStrength,
    signalEvidence: s.label.signalEvidence,
    signalFinding: s.label.signalFinding,
  };
}

const notTrackedIn = (name: string, period: string) =>
  `${name} is a tracked startup, but was not tracked in ${period}.`;

const declaredTools = [
  tool({
    name: 'get_trending_startups_in_period',
    title: 'Trending startups of a period',
    description:
      'The top 20 (or the first `limit`) of a stored weekly `period`, ranked by composite signal, with the strength of and evidence for each signal type (labels). Absent `period`: the current one.',
    inputSchema: z
      .object({
        period: periodArg.optional(),
        limit: z
          .int()
          .min(1)
          .max(TRENDING_SIZE)
          .optional()
          .describe(`How many of the top ${TRENDING_SIZE}, 1 to ${TRENDING_SIZE} (default ${TRENDING_SIZE}).`),
      })
      .strict(),
    outputSchema: z.object({
      period: Period,
      startups: z.array(Startup).max(TRENDING_SIZE),
      labels: Labels.max(TRENDING_SIZE),
    }),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The `trending` array of the response.' },
    paid: false,
    handler: async ({ period, limit }, { ctx }) => {
      const list = await trending(ctx.holder.published(), period);
      const top = list.startups.slice(0, limit ?? TRENDING_SIZE);
      return { period: periodRef(list.info), startups: top.map((s) => s.startup), labels: top.map(labelOf) };
    },
  }),
  tool({
    name: 'search_startups_by_sector_in_period',
    title: 'Startups in a sector, by period and page',
    description:
      'The ranked startups of one of the 15 sectors in a stored weekly `period` (absent: the current one), the first `limit` of them, with labels (signal strength and evidence).',
    inputSchema: z
      .object({
        sector: z.enum(SECTOR_SLUGS).describe('Sector slug, one of the 15.'),
        period: periodArg.optional(),
        limit: z
          .int()
          .min(1)
          .max(1000)
          .optional()
          .describe('At most this many startups, best first (default: all; startupCount still counts all).'),
      })
      .strict(),
    outputSchema: outputOf(Sector).extend({ labels: Labels, period: Period.optional() }),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The entry of `sectors` whose slug is `sector`.' },
    paid: false,
    handler: async ({ sector, period, limit }, { ctx }) => {
      const snapshot = ctx.holder.published();
      // The sector's entry of /api/signals.json; without a `period` the answer is that entry (and labels) as served.
      const entry = snapshot.sectors.find((s) => s.slug === sector)!;
      const ranking = await sectorRanking(snapshot, sector, period);
      const shown = ranking.startups.slice(0, limit ?? ranking.startups.length);
      return {
        ...entry,
        startupCount: ranking.startups.length,
        startups: shown.map((s) => s.startup),
        labels: shown.map(labelOf),
        ...(period === undefined ? {} : { period: periodRef(ranking.info) }),
      };
    },
  }),
  tool({
    name: 'get_startup_signal_in_period',
    title: 'Signal of one startup in a period',
    description:
      'The signal of one tracked startup in a stored weekly `period` (absent: the current one), matched as get_startup_signal matches; found: false with `detail` when it was not tracked that week.',
    inputSchema: z
      .object({
        name: name.describe('Startup display name or GitHub organisation slug.'),
        period: periodArg.optional(),
      })
      .strict(),
    outputSchema: SignalResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/signal', note: 'Argument `name` maps to the `company` query parameter.' },
    paid: false,
    // The one lookup of GET /api/signal: the same match (typos allowed here only), the same candidates.
    handler: async ({ name, period }, { ctx }) => {
      const snapshot = ctx.holder.published();
      const { resolution, header } = resolveStartup(snapshot, name);
      if (resolution.status !== 'match') {
        const misses = startupCandidates(resolution);
        const info = period === undefined ? undefined : periodInfo(snapshot, period);
        return {
          found: false,
          nameMatch: header,
          ...(misses.length ? { candidates: misses } : {}),
          ...(info ? { period: periodRef(info) } : {}),
        };
      }
      const week = await startupInPeriod(snapshot, resolution.item.login, period);
      const ref = period === undefined ? {} : { period: periodRef(week.info) };
      if (!week.startup) {
        return {
          found: false,
          nameMatch: header,
          ...ref,
          detail: notTrackedIn(resolution.item.startup.name, week.info.slug),
        };
      }
      const { startup, label, stageSource, evidenceDetails, sector, rankOverall, rankInSector, compositeScore } =
        week.startup;
      const ranks = period === undefined ? {} : { sector, rankOverall, rankInSector, compositeScore };
      return { found: true, nameMatch: header, startup, ...label, stageSource, evidenceDetails, ...ref, ...ranks };
    },
  }),
  tool({
    name: 'get_diligence_dossier',
    title: 'Diligence dossier',
    description:
      'A public-source diligence dossier for a company: acquirer history, publicly disclosed backers and the published signal, each fact with its source.',
    inputSchema: z
      .object({
        company: name.refine((v) => v.trim().length > 0, 'must not be blank').describe('Company name.'),
      })
      .strict(),
    annotations: READ,
    rest: {
      method: 'GET',
      path: '/api/diligence.json',
      note: 'Argument `company` maps to the `company` query parameter.',
    },
    paid: false,
    // Outside the corpus the REST route answers 404 with `dossier.found: false`, an expected outcome: the tool
    // returns the same body as a normal result.
    handler: ({ company }, { ctx }) => diligenceDossier(ctx.holder.published(), ctx.urls.base, company.trim()).body,
    outputSchema: outputOf(DiligenceResponse),
  }),
  tool({
    name: 'get_signals_summary',
    title: 'Signals summary',
    description:
      'The current period, the number of startups and sectors tracked, and the URLs of every format (JSON, CSV, JSON lines, feed). Full data is available as the MCP resources signal://summary and signal://trending.',
    inputSchema: z.object({}).strict(),
    outputSchema: SummaryResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The `meta` object of the response, plus format URLs.' },
    paid: false,
    handler: (_args, { ctx }) => signalsSummary(ctx.holder.published(), ctx.urls.base),
  }),
  tool({
    name: 'get_scout_receipts',
    title: 'Scout receipts',
    description:
      'The Scout Score (0–100) of a GitHub user: how early their starring history picked validated companies, with their rank, top early calls and a shareable card URL.',
    inputSchema: z
      .object({
        github_username: z
          .string()
          .min(1)
          .max(39)
          .regex(GITHUB_USERNAME_SCHEMA_PATTERN)
          .describe('GitHub username: alphanumeric with single interior hyphens, starting alphanumeric.'),
      })
      .strict(),
    outputSchema: outputOf(ScoutReceipts),
    annotations: { ...READ, openWorldHint: true },
    rest: { method: 'GET', path: '/api/receipts/{username}', note: 'Argument `github_username` is the path segment.' },
    paid: false,
    handler: ({ github_username }, { ctx }) => ctx.services.scout.receipts(github_username),
  }),
  tool({
    name: 'get_methodology',
    title: 'Methodology',
    description:
      'How the signals are computed: the six pipeline steps (collect, filter, normalise, accelerate, classify, rank) as a schema.org HowTo.',
    inputSchema: z.object({}).strict(),
    outputSchema: outputOf(Methodology),
    annotations: READ,
    rest: { method: 'GET', path: '/api/v1/methodology.json', note: 'The whole document.' },
    paid: false,
    handler: (_args, { ctx }) => ctx.services.documents.methodology.document,
  }),
  tool({
    name: 'get_deep_signal',
    title: 'Deep Signal (paid)',
    description:
      'An enriched profile of one tracked startup: velocity, growth, novelty and composite scores, sector rank and percentile, a plain-English thesis, sector comparables and history. Paid: one credit (or one x402 payment) per matched call; a miss is free.',
    inputSchema: z.object({ name: name.describe('Startup display name or GitHub organisation slug.') }).strict(),
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
    rest: {
      method: 'POST',
      path: '/api/agent/deep-signal',
      note: 'Body {"name": …} with a credit-pack key; or POST /api/agent/deep-signal/x402 paid per call.',
    },
    paid: true,
    outputSchema: DeepSignalResult,
    handler: ({ name }, env) => deepSignalTool(name, env),
  }),
  tool({
    name: 'search_site',
    title: 'Site search',
    description:
      'Searches the whole site (startups, sectors, blog posts, comparisons, answers, FAQs, research findings) for words, best first, each hit with its URL and a snippet. For a question in plain words, ask answers it directly.',
    inputSchema: z
      .object({
        q: QueryText.describe('Search words, at most 280 characters.'),
        type: z.enum(SEARCH_TYPES).optional().describe('Only hits of this type.'),
        limit: z
          .int()
          .min(SEARCH_LIMIT.min)
          .max(SEARCH_LIMIT.max)
          .optional()
          .describe('Number of hits, 1 to 50 (default 10).'),
      })
      .strict(),
    outputSchema: outputOf(SearchResponse),
    annotations: READ,
    rest: { method: 'GET', path: '/api/llms-search', note: 'The same arguments as query parameters.' },
    paid: false,
    handler: ({ q, type, limit }, { ctx }) => {
      const snapshot = ctx.holder.published();
      const result = siteSearch(snapshot, ctx.urls.base).search(q, {
        type,
        limit: limit ?? SEARCH_LIMIT.default,
      });
      return { query: q, total: result.total, hits: result.hits, synthetic: snapshot.synthetic };
    },
  }),
  tool({
    name: 'ask',
    title: 'Ask a question',
    description:
      'Answers a question about the tracked startups, sectors, the signals or the service from the question-and-answer corpus, with citations (the answer URL and a source URL for each fact). A question about a company is answered about that company only; when nothing answers well enough it says why (reason) and what to try instead, never a guess.',
    inputSchema: z.object({ question: QueryText.describe('The question, at most 280 characters.') }).strict(),
    outputSchema: AskResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/answer', note: 'Argument `question` maps to the `q` query parameter.' },
    paid: false,
    handler: ({ question }, { ctx }) => {
      const best = bestAnswer(ctx.holder.published(), ctx.urls.base, question);
      if (best.found) return { found: true, answer: toHit(best.hit) };
      const { query: _query, ...miss } = best;
      return miss;
    },
  }),
  tool({
    name: 'get_startup_history',
    title: 'History of one startup',
    description:
      'One tracked startup week by week over the stored periods: rank, sector rank, composite score, commit velocity, contributors, new repositories and signal type with its strength. The name must be exact (display name, GitHub organisation or alias, case-insensitive); a near name answers found: false with candidates.',
    inputSchema: z
      .object({
        name: name.describe('Startup display name, GitHub organisation slug or alias.'),
        limit: z.int().min(1).max(520).optional().describe('Only the most recent weeks, 1 to 520 (default: all).'),
      })
      .strict(),
    outputSchema: HistoryResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/dataset.jsonl', note: 'The lines whose `org` is the startup.' },
    paid: false,
    handler: async ({ name, limit }, { ctx }) => {
      const snapshot = ctx.holder.published();
      const found = resolveStrict(snapshot, name);
      const periodsStored = snapshot.periods.length;
      if (!found.item) {
        return {
          found: false,
          nameMatch: found.how,
          ...(found.candidates.length ? { candidates: found.candidates } : {}),
          periodsStored,
          history: [],
        };
      }
      const shown = await history(snapshot, found.item.login, limit);
      return {
        found: true,
        nameMatch: found.how,
        name: found.item.startup.name,
        org: found.item.login,
        url: ctx.urls.startup(found.item.login),
        periodsStored,
        history: shown.map((r) => ({
          period: r.period,
          periodName: r.periodName,
          sector: r.sector,
          rankOverall: r.rankOverall,
          rankInSector: r.rankInSector,
          compositeScore: r.compositeScore,
          commitVelocity14d: r.startup.commitVelocity14d,
          commitVelocityChange: r.startup.commitVelocityChange,
          contributors: r.startup.contributors,
          contributorGrowth: r.startup.contributorGrowth,
          newRepos: r.startup.newRepos,
          signalType: r.startup.signalType,
          signalStrength: r.label.signalStrength,
        })),
      };
    },
  }),
  tool({
    name: 'compare_startups',
    title: 'Compare startups',
    description:
      'Two to five tracked startups side by side for the current period (or a stored `period`): rank, sector rank, composite score, their signals and the strength of each signal type. Names must be exact (display name, GitHub organisation or alias, case-insensitive); a near name is found: false with candidates, never another company.',
    inputSchema: z
      .object({
        names: z
          .array(name.describe('Startup display name, GitHub organisation slug or alias.'))
          .min(2)
          .max(5)
          .describe('The startups to compare, 2 to 5.'),
        period: periodArg.optional(),
      })
      .strict(),
    outputSchema: CompareResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The entries of the named startups in their sectors.' },
    paid: false,
    handler: async ({ names, period }, { ctx }) => {
      const comparison = await compareStartups(ctx.holder.published(), names, period);
      const startups = comparison.compared.map(({ query, match, entry }) => {
        if (!match.item) {
          return {
            query,
            found: false,
            nameMatch: match.how,
            ...(match.candidates.length ? { candidates: match.candidates } : {}),
          };
        }
        if (!entry) {
          return {
            query,
            found: false,
            nameMatch: match.how,
            detail: notTrackedIn(match.item.startup.name, comparison.info.slug),
          };
        }
        return { query, found: true, nameMatch: match.how, ...figures(entry) };
      });
      const leader = comparison.leader?.startup.name;
      return { period: periodRef(comparison.info), startups, ...(leader ? { leader } : {}) };
    },
  }),
  tool({
    name: 'list_periods',
    title: 'Stored periods',
    description:
      'The weekly periods stored, newest first, with when each was published and how many startups it tracks; any of them can be passed as `period` to the read tools.',
    inputSchema: z
      .object({
        limit: z.int().min(1).max(520).optional().describe('At most this many, newest first (default: all).'),
      })
      .strict(),
    outputSchema: PeriodsResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/changelog.json', note: 'The periods the changelog lists.' },
    paid: false,
    handler: ({ limit }, { ctx }) => {
      const stored = storedPeriods(ctx.holder.published(), limit);
      const urls = ctx.urls;
      return {
        current: periodRef(stored.current),
        total: stored.total,
        periods: stored.periods.map((p) => ({
          ...periodRef(p),
          publishedAt: p.publishedAt.toISOString(),
          startupsTracked: p.startupsTracked,
          current: p.slug === stored.current.slug,
          url: urls.period(p.slug),
        })),
      };
    },
  }),
  tool({
    name: 'get_backtest',
    title: 'Backtest against later funding',
    description:
      'Does the signal come before funding? The point-in-time backtest of the weekly ranking against the rounds and acquisitions later announced: the share of the top k (by composite score, by each signal type, and for controls by size and at random) that announced within 13 or 26 weeks, against the base rate (lift), with bootstrap confidence intervals, lead times, coverage and limits. Until a backtest has been run on the data, it says so and why, with no figures; figures of the synthetic demo data say they are synthetic.',
    inputSchema: z.object({}).strict(),
    outputSchema: z.object({
      status: z.enum(['computed', 'not-run']),
      synthetic: z.boolean(),
      summary: z.string().describe('One sentence: the primary figure and what it shows, or why there is none.'),
      url: z.url().describe('The page with the lift chart.'),
      report: BacktestReport,
    }),
    annotations: READ,
    rest: { method: 'GET', path: '/api/v1/backtest.json', note: 'The same report, under `report`.' },
    paid: false,
    handler: async (_args, { ctx }) => {
      const report = await backtestReport(ctx.holder.published());
      const url = ctx.urls.api('/backtest');
      return { status: report.status, synthetic: report.synthetic, summary: report.summary, url, report };
    },
  }),
] as const;

type DeclaredName = (typeof declaredTools)[number]['name'];

function declared(toolName: DeclaredName): AnyAgentTool {
  return (declaredTools as readonly AnyAgentTool[]).find((t) => t.name === toolName)!;
}

/**
 * One of the interface's tools as a narrower form of a further tool: the interface's name and exact arguments, the
 * further tool's output schema, annotations and handler (which reads an absent `period` or `limit` as the current
 * period, whole). So the contract's argument lists stay exact in every format while both answer alike.
 */
function contractForm(
  of: DeclaredName,
  form: Pick<AgentToolDefinition, 'name' | 'title' | 'description' | 'inputSchema'> & { rest?: RestAnalog },
): AnyAgentTool {
  const full = declared(of);
  return { ...full, ...form, rest: form.rest ?? full.rest, handler: (args, env) => full.handler(args, env) };
}

const contractTrending = contractForm('get_trending_startups_in_period', {
  name: 'get_trending_startups',
  title: 'Trending startups',
  description:
    'The top 20 startups across all sectors in the current weekly period, ranked by composite engineering-acceleration signal (commit velocity, contributor growth, new repositories, signal type), with the strength of and evidence for each signal type (labels).',
  inputSchema: z.object({}).strict(),
});

const contractSector = contractForm('search_startups_by_sector_in_period', {
  name: 'search_startups_by_sector',
  title: 'Startups in a sector',
  description:
    'The ranked startups of one of the 15 sectors in the current period, with the strength of and evidence for each signal type (labels).',
  inputSchema: z.object({ sector: z.enum(SECTOR_SLUGS).describe('Sector slug, one of the 15.') }).strict(),
});

const contractSignal = contractForm('get_startup_signal_in_period', {
  name: 'get_startup_signal',
  title: 'Signal of one startup',
  description:
    'The current signal of one tracked startup by display name or GitHub organisation (case-insensitive: an exact name, slug or alias, or a confident typo of one; never another company). nameMatch says how it matched; a miss is found: false with candidates.',
  inputSchema: z.object({ name: name.describe('Startup display name or GitHub organisation slug.') }).strict(),
});

/** After those three, in the order every surface lists them: the interface's other five, then the further tools. */
const ORDER = [
  'get_diligence_dossier',
  'get_signals_summary',
  'get_scout_receipts',
  'get_methodology',
  'get_deep_signal',
  'get_trending_startups_in_period',
  'search_startups_by_sector_in_period',
  'get_startup_signal_in_period',
  'search_site',
  'ask',
  'get_startup_history',
  'compare_startups',
  'list_periods',
  'get_backtest',
] as const satisfies readonly DeclaredName[];

export const agentTools: readonly AnyAgentTool[] = [
  contractTrending,
  contractSector,
  contractSignal,
  ...ORDER.map(declared),
];

/** The interface's eight tools, whose names and arguments are the contract's. */
export const CONTRACT_TOOL_NAMES = [
  'get_trending_startups',
  'search_startups_by_sector',
  'get_startup_signal',
  'get_diligence_dossier',
  'get_signals_summary',
  'get_scout_receipts',
  'get_methodology',
  'get_deep_signal',
] as const;

export type AgentToolName = (typeof CONTRACT_TOOL_NAMES)[number] | DeclaredName;

/** Any tool, with its handler seen through its own schemas (what the surfaces call). */
export type AnyAgentTool = Omit<AgentToolDefinition, 'handler'> & {
  handler(args: unknown, env: ToolEnv): unknown;
};

export function findTool(toolName: string): AnyAgentTool | undefined {
  return (agentTools as readonly AnyAgentTool[]).find((t) => t.name === toolName);
}

/** A tool's arguments as JSON Schema (draft 2020-12), as the catalog and the function-calling formats publish it. */
export function toolJsonSchema(definition: Pick<AgentToolDefinition, 'inputSchema'>): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(definition.inputSchema, {
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return schema;
}
