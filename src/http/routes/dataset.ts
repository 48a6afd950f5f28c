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
 * gzip-compressed once per period (datasetExport), so a download costs no query, no compression, and answers while
 * the database does not. It is the one body held in gzip only (see datasetExport for why): a client that accepts
 * gzip gets it under the gzip ETag with `Vary: Accept-Encoding`, whatever it says of Brotli; one that does not gets
 * the lines decoded from the gzip copy as they are sent, with their Content-Length. Heavy: it has its own per-address
 * budget (the `export` class, RATE_LIMIT_EXPORT).
 */
/** The codings the export is held in (datasetExport). */
const OFFERED = 'gzip' as const;

export async function datasetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const canonical = `<${ctx.urls.base}/api/dataset.jsonl>; rel="canonical", ${LICENSE_LINK}`;
  const handler = async (request: FastifyRequest, reply: FastifyReply, link: string): Promise<void> => {
    const snapshot = currentSnapshot(ctx);
    const coding = negotiate(request.headers['accept-encoding'], OFFERED);
    const etag = coding === 'identity' ? snapshot.datasetEtag : codedEtag(snapshot.datasetEtag, coding);
    reply
      .header('etag', etag)
      .header('cache-control', PUBLIC_CACHE)
      .header('link', link)
      .header('vary', 'accept-encoding');
    if (notModified(request, snapshot.datasetEtag, OFFERED)) {
      reply.code(304).send();
      return;
    }
    const exported = await datasetExport(snapshot);
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    if (coding === 'gzip') {
      reply.header('content-encoding', 'gzip').send(exported.gzip);
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
      'Each line is a DatasetRecord (see components). Oldest period first. Sent gzip-coded to clients that accept gzip (compressed once per period; the one body not offered in Brotli, to hold one copy instead of two).',
    tags: ['signals'],
    response: {
      200: textContent('application/x-ndjson', 'Newline-delimited DatasetRecord objects.'),
      ...errorResponses(503),
    },
  };
  const config = { rateLimit: 'export' as const, codings: OFFERED };
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
