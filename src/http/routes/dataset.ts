import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notModified, PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { iterateAllPeriodStartups } from '../../store/periods.js';
import { canonicalStartup, type DatasetRecord } from '../../schemas/signals.js';
import type { SectorSlug } from '../../schemas/enums.js';
import { LICENSE_LINK } from './signals.js';

/**
 * The periods the current snapshot knows (so the body matches its ETag even while a newer period is being swapped
 * in), oldest first, one JSON line per startup; read from the store page by page.
 */
async function* datasetLines(ctx: AppContext, slugs: string[]): AsyncGenerator<string> {
  for await (const { period, rows } of iterateAllPeriodStartups(ctx.store.db, 1000, slugs)) {
    let chunk = '';
    for (const row of rows) {
      const record: DatasetRecord = {
        period: period.slug,
        periodName: period.name,
        org: row.org_login,
        sector: row.sector as SectorSlug,
        rank: row.rank_overall,
        sectorRank: row.rank_in_sector,
        compositeScore: row.score_composite,
        synthetic: period.dataset === 'synthetic-demo',
        ...canonicalStartup(row.startup),
      };
      chunk += `${JSON.stringify(record)}\n`;
    }
    yield chunk;
  }
}

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
    const lines = datasetLines(
      ctx,
      snapshot.periods.map((p) => p.slug),
    );
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
