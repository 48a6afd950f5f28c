import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteSearch } from '../../core/search/documents.js';
import { SearchQuery, SearchResponse } from '../../schemas/answers.js';
import { PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';

/** GET /api/llms-search: site-wide token-overlap search over every page type. */
export async function searchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/llms-search',
    {
      schema: {
        summary:
          'Site-wide search over startups, sectors, blog posts, comparisons, answers, FAQs and research findings',
        description:
          'BM25 ranking over an inverted index built once per period: words are folded, stop words dropped and stemmed; titles weigh 3×. Equal scores come in a fixed order: by type (answer, faq, startup, sector, research, comparison, blog), then by title. Diligence facts (acquisitions, backers) are answers. `total` counts every matching document before `limit`; each hit has a snippet around the matched words. `synthetic` says whether the startups searched are the synthetic demo dataset.',
        tags: ['search'],
        operationId: 'llmsSearch',
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errorResponses(400, 503) },
      },
    },
    (request, reply) => {
      const { q, type, limit } = request.query;
      const snapshot = currentSnapshot(ctx);
      const result = siteSearch(snapshot, ctx.urls.base).search(q, { type, limit });
      reply.header('cache-control', PUBLIC_CACHE);
      return { query: q, total: result.total, hits: result.hits, synthetic: snapshot.synthetic };
    },
  );
}
