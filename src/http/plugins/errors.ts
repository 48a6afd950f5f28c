import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { countDatabaseUnavailable } from '../../metrics.js';
import { codeForStatus, ServiceError } from '../../domain/errors.js';
import { PROBLEM_CONTENT_TYPE, problemResponse, type ProblemField } from '../problem.js';

const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Problem bodies may quote the request (its path, a bad value). JSON with this content type is never rendered as
 * HTML, but the markup characters are escaped anyway (\u003c, \u003e, \u0026), so a client that pastes the text
 * into a page cannot be tricked by it.
 */
function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ServiceError,
  common: Record<string, string>,
): FastifyReply {
  const problem = problemResponse(error, request.url.split('?')[0]);
  return reply
    .code(problem.status)
    .headers(common)
    .headers(problem.headers)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(safeJson(problem.body));
}

/**
 * Errors Fastify raises before routing (a malformed URL, an over-long path parameter) are answered as problems too.
 * They skip the onRequest hooks, so the common headers are added here.
 */
export function frameworkErrorHandler(headers: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const problem =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ServiceError('path-segment-too-long')
        : error.code === 'FST_ERR_BAD_URL'
          ? new ServiceError('malformed-url')
          : ServiceError.relay('internal', undefined);
    sendProblem(request, reply, problem, headers);
  };
}

function validationFields(error: FastifyError): ProblemField[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((issue) => {
    const where = [error.validationContext, ...(issue.instancePath ?? '').split('/').filter(Boolean)].filter(Boolean);
    return { location: where.join('.'), message: issue.message ?? 'is invalid' };
  });
}

/**
 * The one place errors become responses. Every problem carries the common headers (`common`), whether or not the
 * route's own hook set them. Known problems keep their status; request validation failures are 400
 * with each bad field; client errors raised by Fastify itself (bad JSON, body too large, wrong content type) keep
 * their 4xx status; anything else is a logged 500 whose details never reach the client.
 */
export interface ErrorHandlingOptions {
  /** Where unexpected errors are logged (with the request id). */
  log?: Logger;
  /** Renders the site's HTML 404 page for a path; browsers asking for a missing page get it instead of JSON. */
  htmlNotFound?: (path: string) => string;
  /** Headers of that HTML page (its Content-Security-Policy). */
  htmlHeaders?: Record<string, string>;
  /** The store's word on an error: the database is unavailable (503 with Retry-After) rather than a bug (500). */
  isDatabaseUnavailable?: (err: unknown) => boolean;
}

/** A browser navigating to a page (not an API client): GET or HEAD, outside /api/, accepting HTML. */
function wantsHtml(request: FastifyRequest, path: string): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !path.startsWith('/api/') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

export function registerErrorHandling(
  app: FastifyInstance,
  common: Record<string, string>,
  options: ErrorHandlingOptions = {},
): void {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    if (error instanceof ServiceError) return sendProblem(request, reply, error, common);
    if (error.validation) {
      const fields = validationFields(error);
      const invalid = new ServiceError(
        'invalid-request',
        { errors: fields, part: error.validationContext },
        { extensions: { errors: fields } },
      );
      return sendProblem(request, reply, invalid, common);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(request, reply, ServiceError.relay(codeForStatus(status), error.message), common);
    }
    if (options.isDatabaseUnavailable?.(error)) {
      countDatabaseUnavailable();
      options.log?.warn({ reqId: request.id, err: error }, 'database unavailable');
      return sendProblem(
        request,
        reply,
        new ServiceError('database-unavailable', {}, { retryAfterSeconds: 5 }),
        common,
      );
    }
    options.log?.error({ reqId: request.id, err: error }, 'unhandled error');
    return sendProblem(request, reply, new ServiceError('unexpected'), common);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A known path asked with another method: 405 with the methods it has (CORS preflight is on every path).
    const allowed = ROUTED_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length > 0) {
      const allow = [...allowed, 'OPTIONS'].join(', ');
      return sendProblem(request, reply, new ServiceError('wrong-method', { path, allow }, { allow }), common);
    }
    if (options.htmlNotFound && wantsHtml(request, path)) {
      return reply
        .code(404)
        .headers(common)
        .headers(options.htmlHeaders ?? {})
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(options.htmlNotFound(path));
    }
    return sendProblem(request, reply, new ServiceError('no-route', { method: request.method, path }), common);
  });
}
