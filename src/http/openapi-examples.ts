import captured from './openapi-examples.json' with { type: 'json' };

/**
 * The examples of the OpenAPI document: a request and a response for every operation, and a problem document for
 * each error status, captured from the real handlers over the demo in-memory period by scripts/openapi-examples.ts
 * (see docs/api.md#examples). They were answered under EXAMPLE_BASE_URL; the document shows them under its own.
 */
export const EXAMPLE_BASE_URL = 'https://signal-service.example';

export interface CapturedResponse {
  contentType: string;
  summary: string;
  value: unknown;
}
export interface CapturedOperation {
  /** The request that was answered: its path parameters, query and JSON body. */
  request: {
    path?: Record<string, string>;
    query?: Record<string, string>;
    body?: unknown;
    /** Headers the request needs besides the key and the content type (an MCP client's Accept). */
    headers?: Record<string, string>;
  };
  /** By status. */
  responses: Record<string, CapturedResponse>;
}
export interface CapturedExamples {
  /** By the operationId of the original (a /api/v1/ mirror shows its /api/ original's). */
  operations: Record<string, CapturedOperation>;
  /** A problem document by status. */
  problems: Record<string, { summary: string; value: unknown }>;
}

export const CAPTURED_EXAMPLES = captured as CapturedExamples;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

type Json = Record<string, any>;

/** Every string in `value` with the capture's base URL replaced by `baseUrl`. */
function rebased(value: unknown, baseUrl: string): unknown {
  if (typeof value === 'string') return value.split(EXAMPLE_BASE_URL).join(baseUrl);
  if (Array.isArray(value)) return value.map((v) => rebased(v, baseUrl));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebased(v, baseUrl)]));
  return value;
}

/** A query or path value as its parameter's schema types it (a query string carries text only). */
function typed(value: string, schema: Json | undefined): unknown {
  const types = [schema?.type, ...((schema?.anyOf ?? []) as Json[]).map((s) => s.type)].flat();
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The name of an operation's response example among the document's components. */
export const responseExampleName = (operationId: string, status: string) => `${operationId}-${status}`;
export const problemExampleName = (status: string) => `Problem-${status}`;

/**
 * Puts the captured examples into the document: each response's under `components.examples`, referenced from the
 * media type of every operation that answers it (an original and its mirror share one); the request's parameters
 * and body as their `example`; each problem response references the problem of its status (or, for a status no
 * capture answered, a problem document built the way the error handler builds it).
 */
export function addExamples<T extends object>(
  document: T,
  baseUrl: string,
  examples: CapturedExamples = CAPTURED_EXAMPLES,
  fallbackProblem: (status: number) => unknown = () => undefined,
): T {
  const doc = document as Json;
  const base = baseUrl.replace(/\/$/, '');
  const components = ((doc.components ??= {}).examples ??= {}) as Json;
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const shared = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const original = path.startsWith('/api/v1/')
        ? paths[`/api/${path.slice('/api/v1/'.length)}`]?.[method]
        : undefined;
      const captured = examples.operations[original?.operationId ?? ''] ?? examples.operations[op.operationId];
      const id = examples.operations[original?.operationId ?? ''] ? original.operationId : op.operationId;
      if (captured) {
        for (const p of (op.parameters ?? []) as Json[]) {
          const value =
            p.in === 'path'
              ? captured.request.path?.[p.name]
              : p.in === 'query'
                ? captured.request.query?.[p.name]
                : undefined;
          if (value !== undefined) p.example = typed(value, p.schema);
        }
        // OpenAPI ignores Accept, Content-Type and Authorization as header parameters: an extension carries them.
        if (captured.request.headers) op['x-example-headers'] = captured.request.headers;
        const body = op.requestBody?.content?.['application/json'];
        if (body && captured.request.body !== undefined) body.example = rebased(captured.request.body, base);
        for (const [status, response] of Object.entries(captured.responses)) {
          const media = op.responses?.[status]?.content?.[response.contentType];
          if (!media) continue;
          const example = { summary: response.summary, value: rebased(response.value, base) };
          // Operations that answer the same (a GET and a POST of one question) share one example.
          const text = JSON.stringify(example);
          let name = shared.get(text);
          if (!name) {
            name = responseExampleName(id, status);
            components[name] = example;
            shared.set(text, name);
          }
          media.examples = { demo: { $ref: `#/components/examples/${name}` } };
        }
      }
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const media = response.content?.['application/problem+json'];
        // An operation's own problem (captured above) stays; the shared ones fit the plain Problem schema only.
        if (!media || media.examples || media.schema?.$ref !== '#/components/schemas/Problem') continue;
        const name = problemExampleName(status);
        if (!components[name]) {
          const problem = examples.problems[status];
          const value = problem ? rebased(problem.value, base) : fallbackProblem(Number(status));
          if (value === undefined) continue;
          components[name] = {
            summary:
              problem?.summary ?? `The members every ${status} problem document has; its detail says what went wrong`,
            value,
          };
        }
        media.examples = { problem: { $ref: `#/components/examples/${name}` } };
      }
    }
  }
  return document;
}
