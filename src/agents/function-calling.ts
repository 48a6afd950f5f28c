import { agentTools, toolJsonSchema, type AnyAgentTool } from './registry.js';
import { siteUrls } from '../domain/urls.js';

/**
 * The tool registry in the three LLM providers' native function-calling shapes. Each body is ready to merge into the
 * provider's request (`tools: [...]`), and POST /api/agent/call runs the call the model makes.
 *
 * - OpenAI: `{type: "function", function: {name, description, parameters, strict: true}}`. Strict mode wants
 *   `additionalProperties: false` on every object, every property listed in `required`, and no `minLength` /
 *   `maxLength` (not in its supported subset), so string lengths move into the description; the server still
 *   enforces them.
 * - Anthropic: `{name, description, input_schema}`, the JSON Schema as is.
 * - Gemini: `{functionDeclarations: [{name, description, parametersJsonSchema}]}`: the older `parameters` field is an
 *   OpenAPI subset that rejects `additionalProperties`, so "no extra properties" is only expressible here.
 */
export const FUNCTION_FORMATS = ['openai', 'anthropic', 'gemini'] as const;
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

/** Rewrites a JSON Schema into OpenAI's strict subset (see above), recursively. */
export function openAiStrictSchema(schema: Json): Json {
  const { minLength: _min, maxLength: _max, ...rest } = schema;
  const out: Json = { ...rest };
  const note = lengthNote(schema);
  if (note) out.description = [schema.description, note].filter(Boolean).join(' ');
  if (out.type === 'object') {
    const properties = Object.fromEntries(
      Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, openAiStrictSchema(v)]),
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
  return format === 'openai' ? openAiTools() : format === 'anthropic' ? anthropicTools() : geminiTools();
}

/** GET /api/agent/tools without a format: where each format lives and how to run a call. */
export function functionCallingCatalog(baseUrl: string): Json {
  const urls = siteUrls(baseUrl);
  const shapes: Record<FunctionFormat, string> = {
    openai: '{tools: [{type: "function", function: {name, description, parameters, strict: true}}]}',
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
      body: '{"name": "<tool name>", "arguments": {…}} (arguments may also be the JSON string a model produced)',
      authentication: 'get_deep_signal only: Authorization: Bearer <API_KEY>',
    },
    tools: tools.map((t) => ({ name: t.name, title: t.title, paid: t.paid })),
  };
}
