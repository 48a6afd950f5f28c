import type { z } from 'zod';
import type { AppContext } from '../http/context.js';
import { HttpProblem, statusTitle, type ProblemField } from '../http/problem.js';
import { findTool, type AnyAgentTool, type ToolEnv } from './registry.js';

/**
 * One way to call a tool by name, shared by every agent surface: MCP (stdio and HTTP), /api/agent/call and A2A.
 * The result is the tool's structured output; a failure is an HttpProblem (unknown tool 404, bad arguments 400, or
 * whatever the tool itself answers), which each surface renders in its own protocol.
 */
export type ToolInvoker = (name: string, args: unknown) => Promise<Record<string, unknown>>;

function issueFields(error: z.ZodError): ProblemField[] {
  return error.issues.map((issue) => ({
    location: ['arguments', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

export function unknownTool(name: string): HttpProblem {
  return new HttpProblem(404, statusTitle(404), `No tool named ${JSON.stringify(name.slice(0, 100))}.`);
}

/** Validates the arguments against the tool's strict schema, runs its handler, and checks the output shape. */
export async function runTool(tool: AnyAgentTool, args: unknown, env: ToolEnv): Promise<Record<string, unknown>> {
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) {
    const errors = issueFields(parsed.error);
    throw new HttpProblem(
      400,
      statusTitle(400),
      `Invalid arguments for ${tool.name}: ${errors.map((e) => `${e.location}: ${e.message}`).join('; ')}`,
      { errors },
    );
  }
  const result = await tool.handler(parsed.data, env);
  return tool.outputSchema.parse(result) as Record<string, unknown>;
}

/** Tools answered in this process, over the service's own core. */
export function localInvoker(ctx: AppContext, apiKey: string | undefined): ToolInvoker {
  return async (name, args) => {
    const tool = findTool(name);
    if (!tool) throw unknownTool(name);
    return runTool(tool, args, { ctx, apiKey });
  };
}

/**
 * Tools answered by a remote deployment (`signal-mcp` with SIGNAL_BASE_URL): each call is one POST to its
 * /api/agent/call, whose problem responses come back as the same HttpProblem values.
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
      throw new HttpProblem(502, 'Bad Gateway', `Could not reach ${baseUrl}: ${(err as Error).message}`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const problem = (body ?? {}) as { title?: unknown; detail?: unknown };
      throw new HttpProblem(
        response.status,
        typeof problem.title === 'string' ? problem.title : statusTitle(response.status),
        typeof problem.detail === 'string' ? problem.detail : `${baseUrl} answered ${response.status}.`,
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpProblem(502, 'Bad Gateway', `${baseUrl} answered something other than a JSON object.`);
    }
    return body as Record<string, unknown>;
  };
}
