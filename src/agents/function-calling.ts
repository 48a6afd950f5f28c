import { z } from 'zod';
import { ServiceError } from '../domain/errors.js';
import { siteUrls } from '../domain/urls.js';
import { agentTools, toolJsonSchema, type AnyAgentTool } from './registry.js';

/**
 * The tool registry in the three LLM providers' native function-calling shapes. Each body is ready to merge into the
 * provider's request (`tools: [...]`), and POST /api/agent/call runs the call the model makes.
 *
 * - OpenAI Chat Completions: `{type: "function", function: {name, description, parameters, strict: true}}`. Strict
 *   mode wants `additionalProperties: false` on every object, every property listed in `required` (an optional one
 *   becomes nullable, and the server reads null as absent), and no `minLength` / `maxLength` (not in its supported
 *   subset), so string lengths move into the description; the server still enforces them.
 * - OpenAI Responses: the same function, flat: `{type: "function", name, description, parameters, strict: true}`.
 * - Anthropic: `{name, description, input_schema}`, the JSON Schema as is.
 * - Gemini: `{functionDeclarations: [{name, description, parametersJsonSchema}]}`: the older `parameters` field is an
 *   OpenAPI subset that rejects `additionalProperties`, so "no extra properties" is only expressible here.
 */
export const FUNCTION_FORMATS = ['openai', 'openai-responses', 'anthropic', 'gemini'] as const;
export type FunctionFormat = (typeof FUNCTION_FORMATS)[number];

type Json = Record<string, unknown>;
const tools = agentTools as readonly AnyAgentTool[];

function lengthNote(schema: Json): string | undefined {
  const min = schema.minLength as number | undefined;
  const max = schema.maxLength as number | undefined;
  if (min === undefined && max === undefined) return undefined;
  if (min !== undefined && max !== undefined) return `${min} to ${max} characters.`;
  return min !== undefined ? `At least ${min} characters.` : `At most ${max} characters.`;
}

/** An optional property in strict mode: listed in `required`, and null stands for "left out". */
function nullable(schema: Json): Json {
  if (typeof schema.type === 'string') {
    const out: Json = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/** Rewrites a JSON Schema into OpenAI's strict subset (see above), recursively. */
export function openAiStrictSchema(schema: Json): Json {
  const { minLength: _min, maxLength: _max, ...rest } = schema;
  const out: Json = { ...rest };
  const note = lengthNote(schema);
  if (note) out.description = [schema.description, note].filter(Boolean).join(' ');
  if (out.type === 'object') {
    const required = new Set((schema.required ?? []) as string[]);
    const properties = Object.fromEntries(
      Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [
        k,
        required.has(k) ? openAiStrictSchema(v) : nullable(openAiStrictSchema(v)),
      ]),
    );
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object') out.items = openAiStrictSchema(out.items as Json);
  return out;
}

export function openAiTools(): Json {
  return {
    tools: tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        description: t.description,
        parameters: openAiStrictSchema(toolJsonSchema(t)),
        strict: true,
      },
    })),
  };
}

export function openAiResponsesTools(): Json {
  return {
    tools: tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: openAiStrictSchema(toolJsonSchema(t)),
      strict: true,
    })),
  };
}

export function anthropicTools(): Json {
  return { tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: toolJsonSchema(t) })) };
}

export function geminiTools(): Json {
  return {
    tools: [
      {
        functionDeclarations: tools.map((t) => ({
          name: t.name,
          description: t.description,
          parametersJsonSchema: toolJsonSchema(t),
        })),
      },
    ],
  };
}

export function functionTools(format: FunctionFormat): Json {
  switch (format) {
    case 'openai':
      return openAiTools();
    case 'openai-responses':
      return openAiResponsesTools();
    case 'anthropic':
      return anthropicTools();
    case 'gemini':
      return geminiTools();
  }
}

/** GET /api/agent/tools without a format: where each format lives and how to run a call. */
export function functionCallingCatalog(baseUrl: string): Json {
  const urls = siteUrls(baseUrl);
  const shapes: Record<FunctionFormat, string> = {
    openai: '{tools: [{type: "function", function: {name, description, parameters, strict: true}}]} (Chat Completions)',
    'openai-responses': '{tools: [{type: "function", name, description, parameters, strict: true}]} (Responses API)',
    anthropic: '{tools: [{name, description, input_schema}]}',
    gemini: '{tools: [{functionDeclarations: [{name, description, parametersJsonSchema}]}]}',
  };
  return {
    formats: Object.fromEntries(
      FUNCTION_FORMATS.map((f) => [f, { url: urls.api(`/api/agent/tools?format=${f}`), shape: shapes[f] }]),
    ),
    call: {
      method: 'POST',
      url: urls.api('/api/agent/call'),
      body: '{"name": "<tool name>", "arguments": {…}} (arguments may also be the JSON string a model produced), or the tool call exactly as the provider emitted it',
      callShapes: CALL_SHAPES,
      authentication: 'get_deep_signal only: Authorization: Bearer <API_KEY>',
      idempotency:
        'get_deep_signal: send Idempotency-Key: <unique per call>; a retry with the same key replays the first answer and is charged once',
    },
    tools: tools.map((t) => ({ name: t.name, title: t.title, paid: t.paid })),
  };
}

/** The tool-call shapes POST /api/agent/call takes, as each provider's API emits them. */
export const CALL_SHAPES = {
  plain: '{name, arguments}: arguments an object or a JSON string',
  'openai-chat': 'a tool_calls item: {id, type: "function", function: {name, arguments: "<JSON string>"}}',
  'openai-responses': 'a function_call output item: {type: "function_call", call_id, name, arguments: "<JSON string>"}',
  anthropic: 'a tool_use content block: {type: "tool_use", id, name, input}, or {name, input}',
  gemini: 'a functionCall part: {functionCall: {name, args}}, or {name, args}',
} as const;

export type CallShape = keyof typeof CALL_SHAPES;

/** One tool call, whichever shape it came in. */
export interface ToolCall {
  shape: CallShape;
  name: string;
  /** The arguments as given: an object, a JSON string, or absent (= {}). */
  args: unknown;
  /** The provider's id of the call (tool_calls id, call_id, tool_use id, functionCall id), when it has one. */
  callId?: string | undefined;
}

const toolName = z.string().min(1).max(64);
const objectArgs = z.record(z.string(), z.unknown());
const stringOrObjectArgs = z.union([objectArgs, z.string().max(10_000)]);

/**
 * Each shape as a schema. The providers' own objects (with a `type` or a `functionCall`) may carry more fields than
 * these (OpenAI's `status` and `caller`, Anthropic's `caller` and `cache_control`, Gemini's `thoughtSignature`…): they
 * are passed through untouched, so a call is accepted as the API emitted it. The bare shapes are strict.
 */
const SHAPES = {
  'openai-chat': z
    .object({
      id: z.string().optional(),
      type: z.literal('function'),
      function: z.object({ name: toolName, arguments: stringOrObjectArgs.optional() }).loose(),
    })
    .loose(),
  'openai-responses': z
    .object({
      type: z.literal('function_call'),
      call_id: z.string().optional(),
      name: toolName,
      arguments: stringOrObjectArgs.optional(),
    })
    .loose(),
  anthropic: z
    .object({ type: z.literal('tool_use'), id: z.string().optional(), name: toolName, input: objectArgs.optional() })
    .loose(),
  gemini: z
    .object({
      functionCall: z.object({ name: toolName, args: objectArgs.optional(), id: z.string().optional() }).loose(),
    })
    .loose(),
  plain: z.object({ name: toolName, arguments: stringOrObjectArgs.optional() }).strict(),
  'anthropic-short': z.object({ name: toolName, input: objectArgs, id: z.string().optional() }).strict(),
  'gemini-short': z.object({ name: toolName, args: objectArgs, id: z.string().optional() }).strict(),
} as const;

/** The request body of POST /api/agent/call, for the OpenAPI document (the handler reads it with toolCallOf). */
export const AgentCallBody = z
  .union([
    SHAPES.plain.describe(CALL_SHAPES.plain),
    SHAPES['openai-chat'].describe(CALL_SHAPES['openai-chat']),
    SHAPES['openai-responses'].describe(CALL_SHAPES['openai-responses']),
    SHAPES.anthropic.describe(CALL_SHAPES.anthropic),
    SHAPES['anthropic-short'].describe('Anthropic, bare: {name, input}'),
    SHAPES.gemini.describe(CALL_SHAPES.gemini),
    SHAPES['gemini-short'].describe('Gemini, bare: {name, args}'),
  ])
  .meta({ id: 'AgentCallBody' });

function shapeOf(body: Record<string, unknown>): keyof typeof SHAPES {
  if (body.type === 'function') return 'openai-chat';
  if (body.type === 'function_call') return 'openai-responses';
  if (body.type === 'tool_use') return 'anthropic';
  if ('functionCall' in body) return 'gemini';
  if ('input' in body) return 'anthropic-short';
  if ('args' in body) return 'gemini-short';
  return 'plain';
}

function shapeProblem(shape: CallShape, error: z.ZodError): ServiceError {
  const errors = error.issues.map((issue) => ({
    location: ['body', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new ServiceError(
    'tool-call-shape',
    { shape, description: CALL_SHAPES[shape], errors },
    { extensions: { errors, callShapes: CALL_SHAPES } },
  );
}

/** Reads a tool call in any of the accepted shapes, or a 400 naming the shapes. */
export function toolCallOf(body: unknown): ToolCall {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('tool-call-not-object', {}, { extensions: { callShapes: CALL_SHAPES } });
  }
  const key = shapeOf(body as Record<string, unknown>);
  const shape: CallShape = key === 'anthropic-short' ? 'anthropic' : key === 'gemini-short' ? 'gemini' : key;
  const parsed = SHAPES[key].safeParse(body);
  if (!parsed.success) throw shapeProblem(shape, parsed.error);
  const v = parsed.data as Record<string, any>;
  switch (key) {
    case 'openai-chat':
      return { shape, name: v.function.name, args: v.function.arguments, callId: v.id };
    case 'openai-responses':
      return { shape, name: v.name, args: v.arguments, callId: v.call_id };
    case 'anthropic':
    case 'anthropic-short':
      return { shape, name: v.name, args: v.input, callId: v.id };
    case 'gemini':
      return { shape, name: v.functionCall.name, args: v.functionCall.args, callId: v.functionCall.id };
    case 'gemini-short':
      return { shape, name: v.name, args: v.args, callId: v.id };
    case 'plain':
      return { shape, name: v.name, args: v.arguments };
  }
}
