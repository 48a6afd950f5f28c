import { z } from 'zod';
import { diligenceDossier } from '../core/diligence/dossier.js';
import { buildMethodology } from '../core/documents/methodology.js';
import { signalsSummary } from '../core/signals/summary.js';
import type { Outcome } from '../domain/errors.js';
import { signalLabel } from '../domain/signal-label.js';
import type { AppContext } from '../app.js';
import type { KeyAccount } from '../payments/keys.js';
import { paidDeepSignal } from '../payments/paid-deep-signal.js';
import { DiligenceResponse } from '../schemas/answers.js';
import { DeepSignal, type DeepSignalMiss } from '../schemas/deep-signal.js';
import { Methodology } from '../schemas/documents.js';
import {
  GITHUB_USERNAME_PATTERN,
  GITHUB_USERNAME_SCHEMA_PATTERN,
  SECTOR_SLUGS,
  SectorSlug,
  SignalStrength,
} from '../schemas/enums.js';
import { ScoutReceipts } from '../schemas/scout.js';
import { Meta, Period, Sector, SignalCandidate, SignalLabel, Startup, signalLabelFields } from '../schemas/signals.js';
import { resolveStartup, startupCandidates, NAME_MATCH_VALUES } from '../core/signals/resolve.js';
import type { SnapshotStartup } from '../snapshot/snapshot.js';

/**
 * The eight agent tools, declared once. MCP tools (stdio and HTTP), the OpenAI / Anthropic / Gemini function
 * definitions, A2A skills, /api/agent/call, the MCP manifest, the agents catalog (/api/agents.json) and the OpenAPI
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
  method: 'GET' | 'POST';
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

const SignalResult = z.object({
  found: z.boolean().describe('False when no tracked startup matches the name (not an error).'),
  nameMatch: z
    .enum(NAME_MATCH_VALUES)
    .describe(
      'How the name was resolved, as GET /api/signal says in X-Name-Match: exact, slug, alias or typo (a confident typo of a tracked startup); ambiguous or none for a miss.',
    ),
  startup: Startup.optional().describe('The matched startup, exactly as GET /api/signal answers it.'),
  signalStrength: SignalStrength.optional().describe(
    'Beside the startup: how strongly the evidence supports its signalType.',
  ),
  signalEvidence: signalLabelFields.signalEvidence.optional(),
  candidates: z
    .array(SignalCandidate)
    .optional()
    .describe('On a miss, the "did you mean" startups GET /api/signal offers; absent when nothing is close.'),
});

/** The labels of a list of startups (beside the Startup objects, never inside them), in the same order. */
const Labels = z
  .array(SignalLabel)
  .describe("Each startup's signal strength and evidence, one entry per startup in the same order as `startups`.");

function labelOf(s: SnapshotStartup): SignalLabel {
  return { name: s.startup.name, signalType: s.startup.signalType, ...signalLabel(s.startup.signalType, s.metrics) };
}

const SummaryResult = z.object({
  meta: Meta,
  sectors: z.array(z.object({ slug: SectorSlug, startupCount: z.int().min(0), url: z.url() })),
  formats: z.record(z.string(), z.url()),
  resources: z.array(z.string()),
});

/** A Deep Signal hit (every field) or miss (`found: false, charged: 0`) in one object, as MCP output schemas must be. */
const DeepSignalResult = DeepSignal.partial().extend({
  found: z.boolean().describe('False for an untracked startup: then only `charged` (0) follows.'),
  charged: z.int().min(0).describe('Credits this call consumed: 1 for a tracked startup, 0 for a miss.'),
});

/**
 * The paid tool: the caller's credentials open an account as on the credit route (401 otherwise), then the route's
 * own core function, paidDeepSignal, answers: a miss is free, a hit takes one credit, no credit left is 402.
 */
async function deepSignalTool(name: string, env: ToolEnv): Promise<DeepSignal | DeepSignalMiss> {
  const { ctx } = env;
  const authenticated = await env.authenticate();
  if (!authenticated.ok) throw authenticated.error;
  const answer = await paidDeepSignal({
    db: ctx.store.db,
    snapshot: ctx.holder.published(),
    account: authenticated.value,
    name,
  });
  env.creditsBalance?.(answer.balance);
  if (!answer.outcome.ok) throw answer.outcome.error;
  return answer.outcome.value;
}

export const agentTools = [
  tool({
    name: 'get_trending_startups',
    title: 'Trending startups',
    description:
      'The top 20 startups across all sectors for the current weekly period, ranked by composite engineering-acceleration signal, each with its commit velocity, contributor growth, new repositories and signal type; beside them, the strength of and evidence for each signal type (labels).',
    inputSchema: z.object({}).strict(),
    outputSchema: z.object({ period: Period, startups: z.array(Startup).max(20), labels: Labels.max(20) }),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The `trending` array of the response.' },
    paid: false,
    handler: (_args, { ctx }) => {
      const snapshot = ctx.holder.published();
      return {
        period: snapshot.meta.period,
        startups: snapshot.trending.map((s) => s.startup),
        labels: snapshot.trending.map(labelOf),
      };
    },
  }),
  tool({
    name: 'search_startups_by_sector',
    title: 'Startups in a sector',
    description:
      'The ranked startups of one of the 15 sectors for the current period; beside them, the strength of and evidence for each signal type (labels).',
    inputSchema: z.object({ sector: z.enum(SECTOR_SLUGS).describe('Sector slug, one of the 15.') }).strict(),
    outputSchema: outputOf(Sector).extend({ labels: Labels }),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The entry of `sectors` whose slug is `sector`.' },
    paid: false,
    handler: ({ sector }, { ctx }) => {
      const snapshot = ctx.holder.published();
      const labels = (snapshot.bySector.get(sector) ?? []).map(labelOf);
      return { ...snapshot.sectors.find((s) => s.slug === sector)!, labels };
    },
  }),
  tool({
    name: 'get_startup_signal',
    title: 'Signal of one startup',
    description:
      'The current signal of one tracked startup, found by display name or GitHub organisation (case-insensitive; an exact name, slug or alias, or a confident typo of one; never another company). Answers found: false with candidates when no tracked startup matches.',
    inputSchema: z.object({ name: name.describe('Startup display name or GitHub organisation slug.') }).strict(),
    outputSchema: SignalResult,
    annotations: READ,
    rest: { method: 'GET', path: '/api/signal', note: 'Argument `name` maps to the `company` query parameter.' },
    paid: false,
    // The one lookup of GET /api/signal: the same match, the same candidates.
    handler: ({ name }, { ctx }) => {
      const { resolution, header } = resolveStartup(ctx.holder.published(), name);
      if (resolution.status === 'match') {
        const { startup, metrics } = resolution.item;
        return { found: true, nameMatch: header, startup, ...signalLabel(startup.signalType, metrics) };
      }
      const candidates = startupCandidates(resolution);
      return { found: false, nameMatch: header, ...(candidates.length ? { candidates } : {}) };
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
    handler: ({ company }, { ctx }) =>
      diligenceDossier(ctx.holder.published(), ctx.config.server.baseUrl, company.trim()).body,
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
    handler: (_args, { ctx }) => signalsSummary(ctx.holder.published(), ctx.config.server.baseUrl),
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
    handler: (_args, { ctx }) => buildMethodology(ctx.config.server.baseUrl),
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
] as const;

export type AgentToolName = (typeof agentTools)[number]['name'];

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
