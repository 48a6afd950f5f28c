import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ServiceError } from '../../domain/errors.js';
import { idempotencyKeyOf, type ToolInvoker } from '../invoke.js';
import { complete, type CompletionSource } from './completions.js';
import { jsonRpcError, toolErrorResult, ProtocolError } from './errors.js';
import { findPrompt, promptArguments, promptList } from './prompts.js';
import { agentTools, findTool, type AnyAgentTool } from '../registry.js';
import { alertAgentTools, findAlertTool } from '../alert-tools.js';
import { createBareMcpServer, MCP_CAPABILITIES, MCP_SERVER_NAME, type McpMethod } from './identity.js';
import { X402PaymentRequiredV2 } from '../../schemas/payments.js';
import { X402_MCP_TOOL, X402_PAYMENT_META, X402_PAYMENT_RESPONSE_META, type McpX402 } from './x402.js';

export { MCP_CAPABILITIES, MCP_SERVER_NAME };

/**
 * The MCP server, generated from the tool registry: the tools (strict input schemas, output schemas, annotations),
 * the resources signal://summary and signal://trending and the template signal://startup/{name}, the prompts and
 * completions for their arguments and the template's. Transport-free: the stdio command and the HTTP route each
 * connect their own transport, and each passes the invoker that answers tools (in-process, or a remote deployment)
 * and the source of completions.
 *
 * Built on the SDK's low-level Server so that what it declares is what it does: a stateless server never sends
 * `list_changed` notifications or resource updates, so no capability says it does; an unknown tool is a JSON-RPC
 * protocol error (−32602), as the 2025-11-25 specification asks, while a known tool that fails (bad arguments, a
 * missing key, no credit) is an `isError` result the model can read and act on.
 */
export const MCP_RESOURCES = [
  {
    name: 'summary',
    uri: 'signal://summary',
    title: 'Signals summary',
    description: 'The current period: meta, sectors with their sizes and the URL of every format.',
    tool: 'get_signals_summary',
  },
  {
    name: 'trending',
    uri: 'signal://trending',
    title: 'Trending startups',
    description: 'The top 20 startups of the current period across all sectors.',
    tool: 'get_trending_startups',
  },
] as const;

export const MCP_STARTUP_TEMPLATE = {
  name: 'startup',
  uriTemplate: 'signal://startup/{name}',
  title: 'One startup',
  description:
    'The signal of one startup by display name or GitHub organisation (percent-encode the name; completion/complete offers the names).',
  tool: 'get_startup_signal',
} as const;

const STARTUP_PREFIX = 'signal://startup/';

export interface McpServerOptions {
  /** The Idempotency-Key of the HTTP request carrying the messages (a tools/call's `_meta` takes precedence). */
  idempotencyKey?: string | undefined;
  version?: string | undefined;
  /** The deployment's address: the server's website URL and icon, and the links in tool results. */
  baseUrl?: string | undefined;
  /**
   * Deep Signal sold per call with x402 (./x402.ts), where the server has an x402 wallet: a get_deep_signal call
   * carrying `_meta["x402/payment"]` is paid with it, and one without a credit-pack key (`hasKey` false) is answered
   * with the x402 offer.
   */
  x402?: { payments: McpX402; hasKey: boolean } | undefined;
}

/**
 * A JSON Schema without the bounds zod writes on every integer (±Number.MAX_SAFE_INTEGER): they say nothing a JSON
 * integer does not, and they cost about 2 KB of tools/list.
 */
function withoutSafeIntegerBounds(key: string, value: unknown): unknown {
  return (key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER
    ? undefined
    : value;
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...out } = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
  return JSON.parse(JSON.stringify(out, withoutSafeIntegerBounds)) as Tool['inputSchema'];
}

/**
 * The paid tool's output schema over MCP: its answer, or the x402 PaymentRequired object an unpaid call answers in
 * `structuredContent` (x402's MCP transport puts it there, and a client that validates structured content against
 * the output schema, as the 1.x SDK's does even for an error result, must accept it). The answer's properties stay
 * at the root; the two required sets tell the branches apart.
 */
function withPaymentRequired(schema: Tool['inputSchema']): Tool['inputSchema'] {
  const offer = jsonSchemaOf(X402PaymentRequiredV2.extend({}), 'output') as Record<string, any>;
  const { required, ...answer } = schema as Record<string, any>;
  const offerProperties = Object.entries(offer.properties as Record<string, { description?: string }>).map(
    ([key, value]) => [key, { ...value, description: `Unpaid call (x402 offer): ${value.description ?? key}` }],
  );
  return {
    ...answer,
    type: 'object',
    properties: { ...answer.properties, ...Object.fromEntries(offerProperties) },
    anyOf: [{ required }, { required: offer.required }],
    definitions: { ...answer.definitions, ...offer.definitions },
  };
}

/** tools/list, rendered once: the registry does not change while the process runs. */
let toolList: Tool[] | undefined;
function listTools(): Tool[] {
  // The interface's eight tools, the further ones, then the alerts tools (src/agents/alert-tools.ts).
  return (toolList ??= [...(agentTools as readonly AnyAgentTool[]), ...alertAgentTools].map((tool) => {
    const outputSchema = jsonSchemaOf(tool.outputSchema, 'output');
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.inputSchema, 'input'),
      outputSchema: tool.name === X402_MCP_TOOL ? withPaymentRequired(outputSchema) : outputSchema,
      annotations: { title: tool.title, ...tool.annotations },
    };
  }));
}

type ResourceLink = { type: 'resource_link'; uri: string; name: string; title?: string; mimeType: string };

function startupLink(name: unknown): ResourceLink[] {
  if (typeof name !== 'string' || name.length === 0) return [];
  const uri = `${STARTUP_PREFIX}${encodeURIComponent(name)}`;
  return [{ type: 'resource_link', uri, name: `startup ${name}`, title: name, mimeType: 'application/json' }];
}

/**
 * The resources a tool's answer describes, linked beside it (`resource_link`), so a client can read or subscribe to
 * them later without calling the tool again: the period's summary and trending list, and each startup found.
 */
export function resourceLinksOf(tool: string, result: Record<string, any>): ResourceLink[] {
  const fixed = MCP_RESOURCES.find((r) => r.tool === tool);
  if (fixed)
    return [
      { type: 'resource_link', uri: fixed.uri, name: fixed.name, title: fixed.title, mimeType: 'application/json' },
    ];
  if (result.found !== true && tool !== 'compare_startups') return [];
  switch (tool) {
    case 'get_startup_signal':
    case 'get_startup_signal_in_period':
      return startupLink(result.startup?.name);
    case 'get_deep_signal':
    case 'get_startup_history':
      return startupLink(result.name);
    case 'compare_startups':
      return ((result.startups ?? []) as Record<string, any>[])
        .filter((s) => s.found === true)
        .flatMap((s) => startupLink(s.startup?.name));
    default:
      return [];
  }
}

async function callTool(
  invoke: ToolInvoker,
  name: string,
  args: unknown,
  idempotencyKey: unknown,
): Promise<CallToolResult> {
  try {
    const key = idempotencyKeyOf(idempotencyKey, 'The Idempotency-Key');
    const result = await invoke(name, args, { idempotencyKey: key });
    // structuredContent for current clients, the same JSON as text for older ones, then the resources it describes.
    return {
      structuredContent: result,
      content: [{ type: 'text', text: JSON.stringify(result) }, ...resourceLinksOf(name, result)],
    };
  } catch (err) {
    if (err instanceof ServiceError) return toolErrorResult(err);
    throw err;
  }
}

/**
 * get_deep_signal paid per call with x402 (./x402.ts): the answer as callTool renders it, the settlement in
 * `_meta["x402/payment-response"]`; or the offer as x402's MCP transport asks, an error result whose
 * structuredContent is the PaymentRequired object and whose first text is the same JSON.
 */
async function paidCall(payments: McpX402, args: unknown, payment: unknown): Promise<CallToolResult> {
  try {
    const call = await payments.deepSignal(args, payment);
    if (call.kind === 'payment-required') {
      const offer = call.paymentRequired as unknown as Record<string, unknown>;
      return { isError: true, structuredContent: offer, content: [{ type: 'text', text: JSON.stringify(offer) }] };
    }
    return {
      structuredContent: call.result,
      content: [{ type: 'text', text: JSON.stringify(call.result) }, ...resourceLinksOf(X402_MCP_TOOL, call.result)],
      ...(call.settlement ? { _meta: { [X402_PAYMENT_RESPONSE_META]: call.settlement } } : {}),
    };
  } catch (err) {
    if (err instanceof ServiceError) return toolErrorResult(err);
    throw err;
  }
}

async function readJson(invoke: ToolInvoker, uri: string, tool: string, args: Record<string, unknown>) {
  try {
    const result = await invoke(tool, args);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result) }] };
  } catch (err) {
    if (err instanceof ServiceError) throw jsonRpcError(err);
    throw err;
  }
}

/** Template variables arrive still percent-encoded; a malformed escape is the caller's error. */
export function decodeTemplateVariable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join('/') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `The name ${JSON.stringify(raw.slice(0, 100))} is not validly encoded.`,
    );
  }
}

export function createMcpServer(
  invoke: ToolInvoker,
  completions: CompletionSource,
  options: McpServerOptions = {},
): Server {
  const server = createBareMcpServer(options.version, options.baseUrl);
  registerMcpHandlers(server, invoke, completions, options);
  return server;
}

export type McpHandler = (request: unknown, extra: unknown) => unknown;

/** Every request handler registerMcpHandlers sets, by method: for servers that register by method name. */
export function mcpHandlersByMethod(
  invoke: ToolInvoker,
  completions: CompletionSource,
  options: McpServerOptions = {},
): Map<McpMethod, McpHandler> {
  const byMethod = new Map<McpMethod, McpHandler>();
  const target = {
    setRequestHandler: (schema: { shape: { method: { value: McpMethod } } }, handler: McpHandler) =>
      byMethod.set(schema.shape.method.value, handler),
  } as unknown as HandlerTarget;
  registerMcpHandlers(target, invoke, completions, options);
  return byMethod;
}

/**
 * Every list fits in one page, so the server never hands out a cursor and any cursor sent is not one of its own:
 * −32602, as the specification asks for an invalid cursor (rather than silently answering the first page).
 */
function noCursor(params: { cursor?: string | undefined } | undefined): Record<string, never> {
  if (params?.cursor !== undefined) {
    throw new ProtocolError(ErrorCode.InvalidParams, 'Invalid cursor: this server answers every list in one page.');
  }
  return {};
}

/** What registerMcpHandlers needs of a server: a place to put each request handler. */
export type HandlerTarget = Pick<Server, 'setRequestHandler'>;

/** Every request handler of the server (tools, resources, prompts, completions) on `server`. */
export function registerMcpHandlers(
  server: HandlerTarget,
  invoke: ToolInvoker,
  completions: CompletionSource,
  options: McpServerOptions = {},
): void {
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    noCursor(request.params);
    return { tools: listTools() };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: args, _meta: meta } = request.params;
    // An unknown tool is a protocol error, not a tool result (MCP 2025-11-25, server/tools).
    if (!findTool(name) && !findAlertTool(name)) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name.slice(0, 100))}.`);
    }
    const x402 = options.x402;
    if (name === X402_MCP_TOOL && x402) {
      const payment = (meta as Record<string, unknown> | undefined)?.[X402_PAYMENT_META];
      if (payment !== undefined || !x402.hasKey) return paidCall(x402.payments, args ?? {}, payment);
    }
    return callTool(invoke, name, args ?? {}, meta?.idempotencyKey ?? options.idempotencyKey);
  });

  server.setRequestHandler(ListResourcesRequestSchema, (request) => ({
    ...noCursor(request.params),
    resources: MCP_RESOURCES.map(({ name, uri, title, description }) => ({
      name,
      uri,
      title,
      description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => ({
    ...noCursor(request.params),
    resourceTemplates: [
      {
        name: MCP_STARTUP_TEMPLATE.name,
        uriTemplate: MCP_STARTUP_TEMPLATE.uriTemplate,
        title: MCP_STARTUP_TEMPLATE.title,
        description: MCP_STARTUP_TEMPLATE.description,
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    const fixed = MCP_RESOURCES.find((r) => r.uri === uri);
    if (fixed) return readJson(invoke, uri, fixed.tool, {});
    if (uri.startsWith(STARTUP_PREFIX) && uri.length > STARTUP_PREFIX.length) {
      const name = decodeTemplateVariable(uri.slice(STARTUP_PREFIX.length));
      return readJson(invoke, uri, MCP_STARTUP_TEMPLATE.tool, { name });
    }
    throw new ProtocolError(ErrorCode.InvalidParams, `Resource ${uri.slice(0, 200)} not found.`);
  });

  server.setRequestHandler(ListPromptsRequestSchema, (request) => ({
    ...noCursor(request.params),
    prompts: promptList(),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = findPrompt(request.params.name);
    const args = promptArguments(prompt, request.params.arguments);
    try {
      return await prompt.render(invoke, args);
    } catch (err) {
      if (err instanceof ServiceError) throw jsonRpcError(err);
      throw err;
    }
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    let kind;
    if (ref.type === 'ref/prompt') {
      kind = findPrompt(ref.name).arguments.find((a) => a.name === argument.name)?.completes;
      if (!kind) {
        throw new ProtocolError(ErrorCode.InvalidParams, `The prompt ${ref.name} has no argument ${argument.name}.`);
      }
    } else if (ref.uri === MCP_STARTUP_TEMPLATE.uriTemplate) {
      if (argument.name !== 'name') {
        throw new ProtocolError(ErrorCode.InvalidParams, `The template ${ref.uri} has no variable ${argument.name}.`);
      }
      kind = 'startup' as const;
    } else if (MCP_RESOURCES.some((r) => r.uri === ref.uri)) {
      return { completion: { values: [], total: 0, hasMore: false } };
    } else {
      throw new ProtocolError(ErrorCode.InvalidParams, `No resource template ${ref.uri.slice(0, 200)}.`);
    }
    return { completion: await complete(completions, kind, argument.value) };
  });
}
