import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AgentCallBody,
  FUNCTION_FORMATS,
  functionCallingCatalog,
  functionTools,
  toolCallOf,
  type FunctionFormat,
} from '../../agents/function-calling.js';
import { authenticatorFor, IdempotencyKey, idempotencyKeyOf, runTool, unknownTool } from '../../agents/invoke.js';
import { MCP_CAPABILITIES } from '../../agents/mcp/server.js';
import { promptList } from '../../agents/mcp/prompts.js';
import { agentTools, findTool, toolJsonSchema } from '../../agents/registry.js';
import { DATA_LICENSE, INTERFACE_VERSION } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';
import { AgentCatalog } from '../../schemas/documents.js';
import { rendered } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import type { AppContext } from '../context.js';
import { settleOnDelivery } from '../credit-hold.js';
import { errorResponses } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';
import { documentOnly } from '../raw-json.js';

/** The agent skill catalog, generated from the tool registry: every tool with its argument schema and REST analog. */
export function buildAgentCatalog(baseUrl: string): AgentCatalog {
  const urls = siteUrls(baseUrl);
  return {
    name: 'Signal Service',
    description:
      'Startup engineering-acceleration signals from public GitHub activity: trending startups, sector rankings, single-startup lookup, diligence dossiers, scout scores, methodology and a paid Deep Signal.',
    version: INTERFACE_VERSION,
    url: urls.home(),
    documentation: urls.api('/api/openapi.json'),
    license: `${DATA_LICENSE.name} (${DATA_LICENSE.url})`,
    surfaces: {
      mcp: {
        http: urls.api('/api/mcp/rpc'),
        httpAlias: urls.api('/mcp'),
        stdio: 'signal-mcp',
        manifest: urls.api('/.well-known/mcp.json'),
        capabilities: Object.keys(MCP_CAPABILITIES).join(', '),
        prompts: promptList()
          .map((p) => p.name)
          .join(', '),
      },
      a2a: { endpoint: urls.api('/api/a2a'), agentCard: urls.api('/.well-known/agent-card.json') },
      functionCalling: {
        definitions: urls.api('/api/agent/tools'),
        formats: `${FUNCTION_FORMATS.join(', ')} (query parameter format)`,
        call: urls.api('/api/agent/call'),
      },
      naturalLanguage: { nlweb: urls.api('/api/nlweb'), ask: urls.api('/api/ask'), llmsTxt: urls.api('/llms.txt') },
    },
    authentication: {
      free: 'none',
      deepSignalCredits: 'Authorization: Bearer <API_KEY>',
      deepSignalX402: 'X-PAYMENT header (x402)',
    },
    tools: agentTools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolJsonSchema(tool),
      annotations: { ...tool.annotations },
      rest: { method: tool.rest.method, url: urls.api(tool.rest.path), note: tool.rest.note },
      paid: tool.paid,
    })),
    resources: [
      { uri: 'signal://summary', name: 'Signals summary', description: 'Meta of the current period and format URLs.' },
      { uri: 'signal://trending', name: 'Trending startups', description: 'The top 20 of the current period.' },
      {
        uri: 'signal://startup/{name}',
        name: 'One startup',
        description: 'Resource template: the signal of one startup by name.',
      },
    ],
    pricing: urls.api('/api/v1/pricing.json'),
  };
}

/** A tool call's `arguments` given as the JSON string a model produced, read as JSON (a 400 when it is not). */
function callArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    throw new ServiceError('arguments-not-json');
  }
}

export async function agentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalog = rendered(JSON.stringify(buildAgentCatalog(ctx.urls.base)), 'application/json; charset=utf-8');
  const schema = {
    summary: 'Agent skill catalog, generated from the tool registry',
    tags: ['agents'],
    response: { 200: AgentCatalog },
  };
  r.get('/api/agents.json', { schema: { ...schema, operationId: 'getAgents' } }, (request, reply) =>
    sendRendered(request, reply, catalog),
  );
  r.get(
    '/api/v1/agents.json',
    { schema: { ...schema, operationId: 'getAgentsV1', description: 'Byte-identical to /api/agents.json.' } },
    (request, reply) =>
      sendRendered(request, reply, catalog, {
        link: `<${ctx.urls.api('/api/agents.json')}>; rel="canonical"`,
      }),
  );

  const json = (value: unknown) => rendered(JSON.stringify(value), 'application/json; charset=utf-8');
  const toolsCatalog = json(functionCallingCatalog(ctx.urls.base));
  const toolsByFormat = new Map(FUNCTION_FORMATS.map((f) => [f, json(functionTools(f))]));
  r.get(
    '/api/agent/tools',
    {
      schema: {
        summary: 'Tool definitions for direct LLM function calling (OpenAI Chat and Responses, Anthropic, Gemini)',
        description:
          "With `format`, the tools in that provider's native shape, as the `tools` field of its request body: `openai` for Chat Completions (nested `function`), `openai-responses` for the Responses API (flat), `anthropic`, `gemini`. Without it, a catalog linking the formats. Run a call with POST /api/agent/call.",
        tags: ['agents'],
        operationId: 'getAgentTools',
        querystring: z.object({ format: z.enum(FUNCTION_FORMATS).optional().describe('Provider format.') }),
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses(400) },
      },
    },
    (request, reply) => {
      const format = request.query.format as FunctionFormat | undefined;
      sendRendered(request, reply, format ? toolsByFormat.get(format)! : toolsCatalog);
    },
  );

  r.post(
    '/api/agent/call',
    {
      validatorCompiler: documentOnly,
      schema: {
        summary: 'Run one agent tool (function calling)',
        description:
          "Runs the named tool with the same validation as the MCP server and answers the tool's structured result. The body is the call as the model emitted it: `{name, arguments}` (arguments an object or a JSON string), an OpenAI Chat `tool_calls` item, an OpenAI Responses `function_call` item, an Anthropic `tool_use` block or `{name, input}`, a Gemini `functionCall` part or `{name, args}`; the provider's own extra fields are ignored. An optional argument sent as null (OpenAI strict mode) is read as absent. Unknown tool: 404. Bad arguments or an unknown shape: 400. get_deep_signal takes the credit-pack key as `Authorization: Bearer <API_KEY>` (401 with WWW-Authenticate otherwise) and an `Idempotency-Key`, and answers as POST /api/agent/deep-signal does: a retry with the same key replays the first answer (`Idempotent-Replayed: true`) and is charged once; 401 and 402 carry `purchaseUrl` (and 402 the `balance`).",
        tags: ['agents'],
        operationId: 'callAgentTool',
        headers: z.object({
          'idempotency-key': IdempotencyKey.optional().describe(
            'Optional, for get_deep_signal: a retry with the same key and call within 24 hours replays the first answer and is not charged again; the same key with another call → 422.',
          ),
        }),
        body: AgentCallBody,
        response: {
          200: z.record(z.string(), z.unknown()).describe("The tool's structured result."),
          ...errorResponses(400, 401, 402, 404, 409, 422, 501, 503),
        },
      },
    },
    async (request, reply) => {
      const call = toolCallOf(request.body);
      const tool = findTool(call.name);
      if (!tool) throw unknownTool(call.name);
      const idempotencyKey = idempotencyKeyOf(request.headers['idempotency-key']);
      reply.header('cache-control', 'no-store');
      const result = await runTool(tool, callArguments(call.args), {
        ctx,
        authenticate: authenticatorFor(ctx, { authorization: request.headers.authorization }),
        creditsBalance: (balance) => reply.header('x-credits-balance', String(balance)),
        idempotencyKey,
        replayed: () => reply.header('idempotent-replayed', 'true'),
        holdCharge: {
          seconds: ctx.config.credits.holdSeconds,
          settle: (hold) => settleOnDelivery(ctx.store.db, reply.raw, hold),
        },
      });
      return result;
    },
  );
}
