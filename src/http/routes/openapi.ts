import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendRendered } from '../conditional.js';
import { renderOpenApi } from '../openapi.js';
import type { Rendered } from '../../snapshot/snapshot.js';

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  // Rendered once every route is known: right after the server listens (in the next turn of the event loop, so the
  // start does not wait for its ~60 ms), or by the first request if that comes sooner.
  let document: Rendered | undefined;
  app.addHook('onListen', (done) => {
    setImmediate(() => (document ??= renderOpenApi(app)));
    done();
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [url, operationId] of [
    ['/api/openapi.json', 'getOpenApi'],
    ['/api/v1/openapi.json', 'getOpenApiV1'],
  ] as const) {
    r.get(
      url,
      {
        schema: {
          summary: 'This OpenAPI 3.1 document',
          tags: ['meta'],
          operationId,
          response: { 200: z.object({ openapi: z.string() }).loose() },
        },
      },
      (request, reply) => {
        sendRendered(request, reply, (document ??= renderOpenApi(app)));
      },
    );
  }
}
