import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notModified, PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { datasetLines } from '../../snapshot/history.js';
import { LICENSE_LINK } from './signals.js';

export async function datasetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const canonical = `<${ctx.config.server.baseUrl}/api/dataset.jsonl>; rel="canonical", ${LICENSE_LINK}`;
  const handler = async (request: FastifyRequest, reply: FastifyReply, link: string): Promise<void> => {
    const snapshot = currentSnapshot(ctx);
    const etag = snapshot.datasetEtag;
    reply.header('etag', etag).header('cache-control', PUBLIC_CACHE).header('link', link);
    if (notModified(request, etag)) {
      reply.code(304).send();
      return;
    }
    const lines = datasetLines(snapshot);
    // Read the first page before answering: a database that does not answer is then a 503, not a 200 cut short.
    const first = await lines.next();
    const stream = Readable.from(
      (async function* () {
        if (!first.done) yield first.value;
        yield* lines;
      })(),
    );
    stream.on('error', (err) => ctx.log.error({ reqId: request.id, err }, 'dataset stream failed'));
    reply.header('content-type', 'application/x-ndjson; charset=utf-8').send(stream);
  };
  const schema = {
    summary: 'Every startup in every stored period, one JSON object per line',
    description: 'Each line is a DatasetRecord (see components). Streamed; oldest period first.',
    tags: ['signals'],
    response: {
      200: textContent('application/x-ndjson', 'Newline-delimited DatasetRecord objects.'),
      ...errorResponses(503),
    },
  };
  r.get('/api/dataset.jsonl', { schema: { ...schema, operationId: 'getDataset' } }, async (request, reply) => {
    await handler(request, reply, LICENSE_LINK);
    return reply;
  });
  r.get('/api/v1/dataset.jsonl', { schema: { ...schema, operationId: 'getDatasetV1' } }, async (request, reply) => {
    await handler(request, reply, canonical);
    return reply;
  });
}
