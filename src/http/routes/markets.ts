import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Market, MarketSummary } from '../../schemas/documents.js';
import { Problem } from '../../schemas/problem.js';
import { deriveAsync } from '../../snapshot/derive-async.js';
import { rendered, type Rendered, type Snapshot } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';

/** GET /api/markets/{slug}: one prediction market, computed from the current period. */
export async function marketsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { markets } = ctx.services;
  const bodiesOf = deriveAsync(async (s: Snapshot) => {
    const bodies = new Map<string, Rendered>();
    for (const [slug, market] of await markets.all(s))
      bodies.set(slug, rendered(JSON.stringify(market), 'application/json; charset=utf-8'));
    return bodies;
  });

  r.get(
    '/api/markets/:slug',
    {
      schema: {
        summary: 'A prediction market: question, resolver, source of truth and ranked candidates',
        description:
          'Candidates and their implied probabilities are computed from the current period (see probabilityFormula). An unknown slug answers 404 with the list of available markets in `markets`.',
        tags: ['markets'],
        operationId: 'getMarket',
        params: z.object({ slug: z.string().describe('Market slug.') }),
        response: {
          200: Market,
          404: {
            description: 'Unknown market; `markets` lists the available ones.',
            content: {
              'application/problem+json': { schema: Problem.extend({ markets: z.array(MarketSummary).optional() }) },
            },
          },
          ...errorResponses(503),
        },
      },
    },
    async (request, reply) => {
      const snapshot = currentSnapshot(ctx);
      const known = markets.definitions.some((d) => d.slug === request.params.slug);
      if (!known) throw new ServiceError('unknown-market', {}, { extensions: { markets: [...markets.summaries] } });
      let bodies: Map<string, Rendered>;
      try {
        bodies = await bodiesOf(snapshot);
      } catch (err) {
        ctx.log.warn({ reqId: request.id, err }, 'could not compute the markets');
        throw new ServiceError('markets-store-silent', {}, { retryAfterSeconds: 5 });
      }
      sendRendered(request, reply, bodies.get(request.params.slug)!);
      return reply;
    },
  );
}
