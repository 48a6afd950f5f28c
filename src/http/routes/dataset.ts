import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notModified, PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { datasetExport } from '../../snapshot/history.js';
import { LICENSE_LINK } from './signals.js';

/** True when an Accept-Encoding value accepts gzip (named or `*`, without q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((p) => p.trim());
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/**
 * GET /api/dataset.jsonl: every stored period's startups, one JSON line each. Sent from memory: rendered and
 * gzip-compressed once per period (datasetExport), so a download costs no query and answers while the database does
 * not. A client that accepts gzip gets the compressed body (its own ETag, `Vary: Accept-Encoding`). Heavy: it has its
 * own per-address budget (the `export` class, RATE_LIMIT_EXPORT).
 */
export async function datasetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const canonical = `<${ctx.config.server.baseUrl}/api/dataset.jsonl>; rel="canonical", ${LICENSE_LINK}`;
  const handler = async (request: FastifyRequest, reply: FastifyReply, link: string): Promise<void> => {
    const snapshot = currentSnapshot(ctx);
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    const etag = gzip ? `${snapshot.datasetEtag.slice(0, -1)}-gzip"` : snapshot.datasetEtag;
    reply
      .header('etag', etag)
      .header('cache-control', PUBLIC_CACHE)
      .header('link', link)
      .header('vary', 'accept-encoding');
    if (notModified(request, etag)) {
      reply.code(304).send();
      return;
    }
    const rendered = await datasetExport(snapshot);
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    if (gzip) reply.header('content-encoding', 'gzip').send(rendered.gzipped);
    else reply.send(rendered.body);
  };
  const schema = {
    summary: 'Every startup in every stored period, one JSON object per line',
    description:
      'Each line is a DatasetRecord (see components). Oldest period first. Sent gzip-compressed to clients that accept it.',
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
