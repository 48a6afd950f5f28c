import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CITATION_FORMATS, isCitationFormat } from '../../core/citations/citations.js';
import { sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';

export const CiteParams = z.object({
  format: z.string().describe(`One of: ${CITATION_FORMATS.join(', ')}.`),
  slug: z.string().describe('paper (the methodology report), dataset, or a research finding slug.'),
});

/** GET /api/cite/{format}/{slug}: a reference-manager citation as plain text. */
export async function citeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { documents } = ctx.services;

  r.get(
    '/api/cite/:format/:slug',
    {
      schema: {
        summary: 'A citation of the methodology report, the dataset or a research finding',
        description: `Formats: ${CITATION_FORMATS.join(', ')}. Unknown format or slug: 404.`,
        tags: ['citations'],
        operationId: 'getCitation',
        params: CiteParams,
        response: { 200: textContent('text/plain', 'The citation text.'), ...errorResponses(404, 503) },
      },
    },
    async (request, reply) => {
      const { format, slug } = request.params;
      const snapshot = currentSnapshot(ctx);
      // The 404 details name the valid values only: the request's own text is never echoed.
      if (!isCitationFormat(format)) {
        throw new ServiceError(
          'unknown-citation-format',
          { formats: CITATION_FORMATS },
          { extensions: { formats: [...CITATION_FORMATS] } },
        );
      }
      const body = await documents.citation(snapshot, format, slug);
      if (!body) {
        throw new ServiceError(
          'unknown-citation-slug',
          {},
          { extensions: { slugs: documents.citationSlugs(snapshot) } },
        );
      }
      sendRendered(request, reply, body);
      return reply;
    },
  );
}
