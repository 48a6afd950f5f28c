import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { agentTools } from '../../agents/registry.js';
import { buildLlmsTxt, surfacesFromOpenApi, type ApiSurface } from '../../core/documents/llms-txt.js';
import { researchFindings } from '../../core/documents/research.js';
import { derive, rendered, type Rendered } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';

/** The machine-readable site surfaces: the weekly RSS feed and llms.txt. */
export async function feedRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const baseUrl = ctx.urls.base;
  const { documents, markets } = ctx.services;

  r.get(
    '/feed.xml',
    {
      schema: {
        summary: 'RSS 2.0 weekly feed: one item per published period, plus blog posts',
        tags: ['feeds'],
        operationId: 'getFeed',
        response: { 200: textContent('application/rss+xml', 'An RSS 2.0 document.'), ...errorResponses(503) },
      },
    },
    async (request, reply) => {
      const snapshot = currentSnapshot(ctx);
      let body: Rendered;
      try {
        body = await documents.feed(snapshot);
      } catch (err) {
        ctx.log.warn({ reqId: request.id, err }, 'could not read the trending history for the feed');
        throw new ServiceError('feed-store-silent', {}, { retryAfterSeconds: 5 });
      }
      sendRendered(request, reply, body);
      return reply;
    },
  );

  // llms.txt is the one document rendered here: it lists this server's own API (its OpenAPI document, complete once
  // every route is registered) and the agent tools, which only the surfaces know.
  let surfaces: ApiSurface[] | undefined;
  app.addHook('onReady', async () => {
    surfaces = surfacesFromOpenApi(app.swagger() as { paths?: Record<string, Record<string, unknown>> });
  });
  const llmsOf = derive((s) =>
    rendered(
      buildLlmsTxt({
        baseUrl,
        snapshot: s,
        surfaces: (surfaces ??= surfacesFromOpenApi(
          app.swagger() as { paths?: Record<string, Record<string, unknown>> },
        )),
        tools: agentTools,
        findings: researchFindings(s, baseUrl),
        markets: markets.summaries,
      }),
      'text/plain; charset=utf-8',
    ),
  );

  r.get(
    '/llms.txt',
    {
      schema: {
        summary: 'Plain-text site map for language models (llms.txt)',
        description: 'What the service is, every API surface with its URL, the sectors, and how to cite.',
        tags: ['feeds'],
        operationId: 'getLlmsTxt',
        response: { 200: textContent('text/plain', 'Markdown-formatted plain text.'), ...errorResponses(503) },
      },
    },
    (request, reply) => sendRendered(request, reply, llmsOf(currentSnapshot(ctx))),
  );
}
