import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CITATION_FORMATS,
  citationItems,
  isCitationFormat,
  readPaper,
  type CslItem,
} from '../../core/citations/citations.js';
import { documentsDir } from '../../core/documents/content.js';
import { derive, rendered, type Rendered } from '../../snapshot/snapshot.js';
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
  const baseUrl = ctx.urls.base;
  const paper = readPaper(documentsDir(ctx.config.documents));

  // Items are computed once per snapshot; each format of each item is rendered on first request and kept.
  const itemsOf = derive((s) => ({ items: citationItems(s, baseUrl, paper), bodies: new Map<string, Rendered>() }));
  // citation-js is loaded with the first citation asked for, not at start.
  let formatter: Promise<typeof import('../../core/citations/format.js')> | undefined;

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
      const { items, bodies } = itemsOf(currentSnapshot(ctx));
      // The 404 details name the valid values only: the request's own text is never echoed.
      if (!isCitationFormat(format)) {
        throw new ServiceError(
          'unknown-citation-format',
          { formats: CITATION_FORMATS },
          { extensions: { formats: [...CITATION_FORMATS] } },
        );
      }
      const item: CslItem | undefined = items.get(slug);
      if (!item) {
        throw new ServiceError('unknown-citation-slug', {}, { extensions: { slugs: [...items.keys()] } });
      }
      const key = `${format}/${slug}`;
      let body = bodies.get(key);
      if (!body) {
        const { formatCitation } = await (formatter ??= import('../../core/citations/format.js'));
        body = rendered(formatCitation(item, format), 'text/plain; charset=utf-8');
        bodies.set(key, body);
      }
      sendRendered(request, reply, body);
      return reply;
    },
  );
}
