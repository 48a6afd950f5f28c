import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notModified, PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { datasetBody, datasetExport } from '../../snapshot/history.js';
import { codedEtag, negotiate } from '../encoding.js';
import { LICENSE_LINK } from './signals.js';

/**
 * GET /api/dataset.jsonl: every stored period's startups, one JSON line each. Sent from memory: rendered and
 * compressed once per period in Brotli and gzip (datasetExport), so a download costs no query, no compression, and
 * answers while the database does not. A client gets the coding it prefers (encoding.ts `negotiate`), under that
 * coding's ETag with `Vary: Accept-Encoding`; one that accepts neither gets the lines decoded from the gzip copy as
 * they are sent, with their Content-Length. Heavy: it has its own per-address budget (the `export` class,
 * RATE_LIMIT_EXPORT).
 */
export async function datasetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const canonical = `<${ctx.config.server.baseUrl}/api/dataset.jsonl>; rel="canonical", ${LICENSE_LINK}`;
  const handler = async (request: FastifyRequest, reply: FastifyReply, link: string): Promise<void> => {
    const snapshot = currentSnapshot(ctx);
    const coding = negotiate(request.headers['accept-encoding']);
    const etag = coding === 'identity' ? snapshot.datasetEtag : codedEtag(snapshot.datasetEtag, coding);
    reply
      .header('etag', etag)
      .header('cache-control', PUBLIC_CACHE)
      .header('link', link)
      .header('vary', 'accept-encoding');
    if (notModified(request, snapshot.datasetEtag)) {
      reply.code(304).send();
      return;
    }
    const exported = await datasetExport(snapshot);
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    if (coding !== 'identity') {
      reply.header('content-encoding', coding).send(exported[coding]);
      return;
    }
    // A HEAD gets the headers only: an empty stream, so the lines are not decoded for nothing.
    reply
      .header('content-length', exported.length)
      .send(request.method === 'HEAD' ? Readable.from([]) : datasetBody(exported));
  };
  const schema = {
    summary: 'Every startup in every stored period, one JSON object per line',
    description:
      'Each line is a DatasetRecord (see components). Oldest period first. Sent Brotli- or gzip-coded to clients that accept it (compressed once per period).',
    tags: ['signals'],
    response: {
      200: textContent('application/x-ndjson', 'Newline-delimited DatasetRecord objects.'),
      ...errorResponses(503),
    },
  };
  const config = { rateLimit: 'export' as const };
  r.get('/api/dataset.jsonl', { config, schema: { ...schema, operationId: 'getDataset' } }, async (request, reply) => {
    await handler(request, reply, LICENSE_LINK);
    return reply;
  });
  r.get(
    '/api/v1/dataset.jsonl',
    { config, schema: { ...schema, operationId: 'getDatasetV1' } },
    async (request, reply) => {
      await handler(request, reply, canonical);
      return reply;
    },
  );
}
