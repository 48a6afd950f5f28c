import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ServiceError, type FieldIssue } from '../domain/errors.js';
import type { AppContext } from '../app.js';
import { authenticate, authenticateKey } from '../payments/authenticate.js';
import { findTool, type AnyAgentTool, type ToolEnv } from './registry.js';
import { findAlertTool } from './alert-tools.js';

/**
 * One way to call a tool by name, shared by every agent surface: MCP (stdio and HTTP), /api/agent/call and A2A.
 * The result is the tool's structured output; a failure is a ServiceError (unknown-tool 404, invalid-arguments 400,
 * or whatever the tool itself answers), which each surface renders in its own protocol.
 */
export type ToolInvoker = (name: string, args: unknown, options?: CallOptions) => Promise<Record<string, unknown>>;

export interface CallOptions {
  /** The caller's Idempotency-Key for a paid call: a retry with the same key is answered once and charged once. */
  idempotencyKey?: string | undefined;
}

/** The one Idempotency-Key rule (src/payments/paid-call.ts), where the agent surfaces have always found it. */
export { IdempotencyKey, idempotencyKeyOf } from '../payments/paid-call.js';

/**
 * What the caller presented to open a credit-pack account: the `Authorization` header of an HTTP surface, or the
 * key signal-mcp read from SIGNAL_API_KEY. Only the paid tool looks at it.
 */
export type Credentials = { authorization: string | undefined } | { apiKey: string | undefined };

/** The tool environment's authenticator for these credentials (src/payments/authenticate.ts does the work). */
export function authenticatorFor(ctx: AppContext, credentials: Credentials): ToolEnv['authenticate'] {
  return 'authorization' in credentials
    ? () => authenticate(ctx.store.db, credentials.authorization)
    : () => authenticateKey(ctx.store.db, credentials.apiKey, 'signal-mcp-key-missing');
}

function issueFields(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    location: ['arguments', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

export function unknownTool(name: string): ServiceError {
  return new ServiceError('unknown-tool', { name });
}

/**
 * An optional argument given as null is read as absent: OpenAI's strict mode lists every property as required and
 * lets the model send null for the ones it means to leave out.
 */
function withoutNullOptionals(tool: AnyAgentTool, args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const shape = tool.inputSchema.shape as Record<string, z.ZodType>;
  const entries = Object.entries(args as Record<string, unknown>);
  if (!entries.some(([, v]) => v === null)) return args;
  return Object.fromEntries(
    entries.filter(([k, v]) => !(v === null && shape[k] !== undefined && shape[k].safeParse(undefined).success)),
  );
}

/** Validates the arguments against the tool's strict schema, runs its handler, and checks the output shape. */
export async function runTool(tool: AnyAgentTool, args: unknown, env: ToolEnv): Promise<Record<string, unknown>> {
  const parsed = tool.inputSchema.safeParse(withoutNullOptionals(tool, args ?? {}));
  if (!parsed.success) {
    const errors = issueFields(parsed.error);
    throw new ServiceError('invalid-tool-arguments', { tool: tool.name, errors }, { extensions: { errors } });
  }
  const result = await tool.handler(parsed.data, env);
  return tool.outputSchema.parse(result) as Record<string, unknown>;
}

/** Tools answered in this process, over the service's own core. */
export function localInvoker(
  ctx: AppContext,
  credentials: Credentials,
  holdCharge?: ToolEnv['holdCharge'],
): ToolInvoker {
  const authenticate = authenticatorFor(ctx, credentials);
  return async (name, args, options = {}) => {
    const tool = findTool(name) ?? findAlertTool(name);
    if (!tool) throw unknownTool(name);
    return runTool(tool, args, {
      ctx,
      authenticate,
      idempotencyKey: options.idempotencyKey,
      ...(holdCharge ? { holdCharge } : {}),
    });
  };
}

/** Retry-After in seconds, when a response names one that way. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/** The members of a problem body beyond the standard ones (purchaseUrl, balance, errors, …). */
function problemExtensions(problem: Record<string, unknown>): Record<string, unknown> {
  const { type: _t, title: _ti, status: _s, detail: _d, instance: _i, ...rest } = problem;
  return rest;
}

/** How often signal-mcp sends a paid call whose answer it never received (the same Idempotency-Key each time). */
const PAID_ATTEMPTS = 3;

/**
 * Tools answered by a remote deployment (`signal-mcp` with SIGNAL_BASE_URL): each call is one POST to its
 * /api/agent/call, whose problem responses come back as service errors of the same status, detail and extensions.
 * A paid call always carries an Idempotency-Key (the caller's, or a new one per call): when the connection fails
 * before the answer arrives, signal-mcp sends it again with the same key, so it is answered once and charged once.
 */
export function remoteInvoker(
  baseUrl: string,
  apiKey: string | undefined,
  fetchImpl: typeof fetch = fetch,
): ToolInvoker {
  return async (name, args, options = {}) => {
    const paid = findTool(name)?.paid === true;
    const idempotencyKey = paid ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const attempts = paid ? PAID_ATTEMPTS : 1;
    let response: Response | undefined;
    for (let attempt = 1; response === undefined; attempt++) {
      try {
        response = await fetchImpl(`${baseUrl}/api/agent/call`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: JSON.stringify({ name, arguments: args ?? {} }),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        if (attempt >= attempts) {
          throw new ServiceError('remote-unreachable', { baseUrl, reason: (err as Error).message });
        }
      }
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const problem = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
        string,
        unknown
      >;
      const retryAfterSeconds = retryAfterOf(response);
      throw ServiceError.remote(
        { status: response.status, baseUrl, detail: problem.detail },
        {
          extensions: problemExtensions(problem),
          ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        },
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ServiceError('remote-not-json', { baseUrl });
    }
    return body as Record<string, unknown>;
  };
}
