import { z } from 'zod';
import { SECTOR_SLUGS } from '../schemas/enums.js';

/**
 * The eight agent tools, declared once. MCP tools, the OpenAI / Anthropic / Gemini function definitions, A2A
 * skills, /api/agent/call and the agents catalog (/api/agents.json) are all generated from this list; handlers are
 * attached by the agents surface, so this file holds only what every surface must agree on: names, titles,
 * descriptions, argument schemas (strict objects with the interface's bounds), annotations and the REST analog.
 */

/** GitHub's username rule: 1–39 characters, alphanumeric or single interior hyphens, starting alphanumeric. */
export const GITHUB_USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

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

export interface AgentToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: Input;
  annotations: ToolAnnotations;
  rest: RestAnalog;
  /** Charged per successful call (credits or x402). */
  paid: boolean;
}

const READ: ToolAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  destructiveHint: false,
  openWorldHint: false,
};

function tool<Input extends z.ZodObject>(definition: AgentToolDefinition<Input>): AgentToolDefinition<Input> {
  return definition;
}

export const agentTools = [
  tool({
    name: 'get_trending_startups',
    title: 'Trending startups',
    description:
      'The top 20 startups across all sectors for the current weekly period, ranked by composite engineering-acceleration signal, each with its commit velocity, contributor growth, new repositories and signal type.',
    inputSchema: z.object({}).strict(),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The `trending` array of the response.' },
    paid: false,
  }),
  tool({
    name: 'search_startups_by_sector',
    title: 'Startups in a sector',
    description: 'The ranked startups of one of the 15 sectors for the current period.',
    inputSchema: z.object({ sector: z.enum(SECTOR_SLUGS).describe('Sector slug, one of the 15.') }).strict(),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The entry of `sectors` whose slug is `sector`.' },
    paid: false,
  }),
  tool({
    name: 'get_startup_signal',
    title: 'Signal of one startup',
    description:
      'The current signal of one tracked startup, found by display name or GitHub organisation (case-insensitive, fuzzy). Answers found: false when no tracked startup is close enough.',
    inputSchema: z.object({ name: name.describe('Startup display name or GitHub organisation slug.') }).strict(),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signal', note: 'Argument `name` maps to the `company` query parameter.' },
    paid: false,
  }),
  tool({
    name: 'get_diligence_dossier',
    title: 'Diligence dossier',
    description:
      'A public-source diligence dossier for a company: acquirer history, publicly disclosed backers and the published signal, each fact with its source.',
    inputSchema: z.object({ company: name.describe('Company name.') }).strict(),
    annotations: READ,
    rest: {
      method: 'GET',
      path: '/api/diligence.json',
      note: 'Argument `company` maps to the `company` query parameter.',
    },
    paid: false,
  }),
  tool({
    name: 'get_signals_summary',
    title: 'Signals summary',
    description:
      'The current period, the number of startups and sectors tracked, and the URLs of every format (JSON, CSV, JSON lines, feed). Full data is available as the MCP resources signal://summary and signal://trending.',
    inputSchema: z.object({}).strict(),
    annotations: READ,
    rest: { method: 'GET', path: '/api/signals.json', note: 'The `meta` object of the response, plus format URLs.' },
    paid: false,
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
          .regex(GITHUB_USERNAME_PATTERN)
          .describe('GitHub username: alphanumeric with single interior hyphens, starting alphanumeric.'),
      })
      .strict(),
    annotations: { ...READ, openWorldHint: true },
    rest: { method: 'GET', path: '/api/receipts/{username}', note: 'Argument `github_username` is the path segment.' },
    paid: false,
  }),
  tool({
    name: 'get_methodology',
    title: 'Methodology',
    description:
      'How the signals are computed: the six pipeline steps (collect, filter, normalise, accelerate, classify, rank) as a schema.org HowTo.',
    inputSchema: z.object({}).strict(),
    annotations: READ,
    rest: { method: 'GET', path: '/api/v1/methodology.json', note: 'The whole document.' },
    paid: false,
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
  }),
] as const;

export type AgentToolName = (typeof agentTools)[number]['name'];

export function findTool(toolName: string): (typeof agentTools)[number] | undefined {
  return agentTools.find((t) => t.name === toolName);
}

/** A tool's arguments as JSON Schema (draft 2020-12), as the catalog and the function-calling formats publish it. */
export function toolJsonSchema(definition: AgentToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(definition.inputSchema, {
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return schema;
}
