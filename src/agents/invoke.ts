import type { z } from 'zod';
import { codeForStatus, ServiceError, type FieldIssue } from '../domain/errors.js';
import type { AppContext } from '../app.js';
import { authenticate, authenticateKey } from '../payments/authenticate.js';
import { findTool, type AnyAgentTool, type ToolEnv } from './registry.js';

/**
 * One way to call a tool by name, shared by every agent surface: MCP (stdio and HTTP), /api/agent/call and A2A.
 * The result is the tool's structured output; a failure is a ServiceError (unknown-tool 404, invalid-arguments 400,
 * or whatever the tool itself answers), which each surface renders in its own protocol.
 */
export type ToolInvoker = (name: string, args: unknown) => Promise<Record<string, unknown>>;

/**
 * What the caller presented to open a credit-pack account: the `Authorization` header of an HTTP surface, or the
 * key signal-mcp read from SIGNAL_API_KEY. Only the paid tool looks at it.
 */
export type Credentials = { authorization: string | undefined } | { apiKey: string | undefined };

const SIGNAL_MCP_KEY_REQUIRED = 'A credit-pack key is required: set SIGNAL_API_KEY for signal-mcp.';

/** The tool environment's authenticator for these credentials (src/payments/authenticate.ts does the work). */
export function authenticatorFor(ctx: AppContext, credentials: Credentials): ToolEnv['authenticate'] {
  return 'authorization' in credentials
    ? () => authenticate(ctx.store.db, credentials.authorization)
    : () => authenticateKey(ctx.store.db, credentials.apiKey, SIGNAL_MCP_KEY_REQUIRED);
}

function issueFields(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    location: ['arguments', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

export function unknownTool(name: string): ServiceError {
  return new ServiceError('unknown-tool', `No tool named ${JSON.stringify(name.slice(0, 100))}.`);
}

/** Validates the arguments against the tool's strict schema, runs its handler, and checks the output shape. */
export async function runTool(tool: AnyAgentTool, args: unknown, env: ToolEnv): Promise<Record<string, unknown>> {
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) {
    const errors = issueFields(parsed.error);
    throw new ServiceError(
      'invalid-arguments',
      `Invalid arguments for ${tool.name}: ${errors.map((e) => `${e.location}: ${e.message}`).join('; ')}`,
      { extensions: { errors } },
    );
  }
  const result = await tool.handler(parsed.data, env);
  return tool.outputSchema.parse(result) as Record<string, unknown>;
}

/** Tools answered in this process, over the service's own core. */
export function localInvoker(ctx: AppContext, credentials: Credentials): ToolInvoker {
  const env: ToolEnv = { ctx, authenticate: authenticatorFor(ctx, credentials) };
  return async (name, args) => {
    const tool = findTool(name);
    if (!tool) throw unknownTool(name);
    return runTool(tool, args, env);
  };
}

/** Retry-After in seconds, when a response names one that way. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/**
 * Tools answered by a remote deployment (`signal-mcp` with SIGNAL_BASE_URL): each call is one POST to its
 * /api/agent/call, whose problem responses come back as service errors of the same status and detail.
 */
export function remoteInvoker(
  baseUrl: string,
  apiKey: string | undefined,
  fetchImpl: typeof fetch = fetch,
): ToolInvoker {
  return async (name, args) => {
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/api/agent/call`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({ name, arguments: args ?? {} }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new ServiceError('bad-gateway', `Could not reach ${baseUrl}: ${(err as Error).message}`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const problem = (body ?? {}) as { detail?: unknown };
      const retryAfterSeconds = retryAfterOf(response);
      throw new ServiceError(
        codeForStatus(response.status),
        typeof problem.detail === 'string' ? problem.detail : `${baseUrl} answered ${response.status}.`,
        retryAfterSeconds !== undefined ? { retryAfterSeconds } : {},
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ServiceError('bad-gateway', `${baseUrl} answered something other than a JSON object.`);
    }
    return body as Record<string, unknown>;
  };
}
