import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problemBody, statusTitle, type ProblemField } from '../problem.js';

function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(
      JSON.stringify(
        problemBody(problem.status, problem.title, problem.detail, request.url.split('?')[0], problem.extra),
      ),
    );
}

function validationFields(error: FastifyError): ProblemField[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((issue) => {
    const where = [error.validationContext, ...(issue.instancePath ?? '').split('/').filter(Boolean)].filter(Boolean);
    return { location: where.join('.'), message: issue.message ?? 'is invalid' };
  });
}

/**
 * The one place errors become responses. Known problems keep their status; request validation failures are 400
 * with each bad field; client errors raised by Fastify itself (bad JSON, body too large, wrong content type) keep
 * their 4xx status; anything else is a logged 500 whose details never reach the client.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpProblem) return sendProblem(request, reply, error);
    if (error.validation) {
      const fields = validationFields(error);
      const detail = fields.length
        ? fields.map((f) => `${f.location}: ${f.message}`).join('; ')
        : `${error.validationContext ?? 'request'} is invalid`;
      return sendProblem(request, reply, new HttpProblem(400, statusTitle(400), detail, { errors: fields }));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(request, reply, new HttpProblem(status, statusTitle(status), error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, new HttpProblem(500, statusTitle(500), 'An unexpected error occurred.'));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new HttpProblem(404, statusTitle(404), `No resource at ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );
}
