import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { nlwebAnswer } from '../../core/answers/nlweb.js';
import { JsonLd, NlwebBody } from '../../schemas/answers.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';

/** POST /api/nlweb: a natural-language question answered as schema.org JSON-LD. */
export async function nlwebRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/nlweb',
    {
      schema: {
        summary: 'Natural-language query answered as schema.org JSON-LD',
        description:
          'ItemList for list questions (trending, a sector, a signal type, a stage, a comparison), Organization for one startup, Dataset for questions about the data, Question for a question about the service. When nothing answers well enough: an empty ItemList named "No result" with a SearchAction, status 200. A body that is not `{query: string}` (1 to 280 characters) is 400.',
        tags: ['agents'],
        operationId: 'nlweb',
        body: NlwebBody,
        response: {
          200: { description: 'schema.org JSON-LD.', content: { 'application/ld+json': { schema: JsonLd } } },
          ...errorResponses(400, 413, 415, 503),
        },
      },
    },
    (request, reply) => {
      const body = nlwebAnswer(currentSnapshot(ctx), ctx.config.server.baseUrl, request.body.query);
      // Pre-serialised JSON-LD: the bytes bypass the response serializer.
      (reply as FastifyReply)
        .header('content-type', 'application/ld+json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(JSON.stringify(body));
    },
  );
}
