import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATA_LICENSE } from '../../core/license.js';
import { resolveStartup, NAME_MATCH_HEADER, NAME_MATCH_VALUES } from '../../core/resolve.js';
import { SignalMiss, SignalsResponse, Startup } from '../../schemas/signals.js';
import { sendRendered } from '../conditional.js';
import { rendered } from '../../snapshot/snapshot.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';

const MISS = rendered(JSON.stringify({ found: false }), 'application/json; charset=utf-8');
export const LICENSE_LINK = `<${DATA_LICENSE.url}>; rel="license"`;

export const SignalQuery = z.object({
  company: z
    .string()
    .min(1)
    .max(80)
    .describe('Display name or GitHub organisation slug; case-insensitive; confident typos only (see the README).'),
});

export async function signalsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const signalsSchema = {
    summary: 'Current period: trending startups and per-sector rankings',
    tags: ['signals'],
    response: { 200: SignalsResponse, ...errorResponses(503) },
  };
  r.get('/api/signals.json', { schema: { ...signalsSchema, operationId: 'getSignals' } }, (request, reply) => {
    sendRendered(request, reply, currentSnapshot(ctx).signalsJson, { link: LICENSE_LINK });
  });
  r.get(
    '/api/v1/signals.json',
    { schema: { ...signalsSchema, operationId: 'getSignalsV1', description: 'Byte-identical to /api/signals.json.' } },
    (request, reply) => {
      sendRendered(request, reply, currentSnapshot(ctx).signalsJson, {
        link: `<${ctx.config.baseUrl}/api/signals.json>; rel="canonical", ${LICENSE_LINK}`,
      });
    },
  );

  r.get(
    '/api/signals.csv',
    {
      schema: {
        summary: 'Current period as CSV (RFC 4180), one row per startup',
        description:
          'Columns: period, sector, sectorRank, trendingRank, then every Startup field, then `synthetic` (`true` on every row of the synthetic demo dataset: fictional startups). Cells that could start a spreadsheet formula are prefixed with an apostrophe.',
        tags: ['signals'],
        operationId: 'getSignalsCsv',
        response: { 200: textContent('text/csv', 'RFC 4180 CSV with a header row.'), ...errorResponses(503) },
      },
    },
    (request, reply) => {
      sendRendered(request, reply, currentSnapshot(ctx).signalsCsv, { link: LICENSE_LINK });
    },
  );

  r.get(
    '/api/signal',
    {
      schema: {
        summary: 'One startup by display name or GitHub organisation (case-insensitive, confident typos only)',
        description: `The startup whose display name or GitHub organisation slug the query names, or a confident typo of it (the matching rule is in the README), never a substitute. Otherwise \`{ "found": false }\`, with \`candidates\` ("did you mean": name, org, why) when the name is ambiguous or close to one. The \`${NAME_MATCH_HEADER}\` header says how the name was resolved.`,
        tags: ['signals'],
        operationId: 'getSignal',
        querystring: SignalQuery,
        response: {
          200: {
            description: 'The Startup record, or `{found: false}` (not an error).',
            headers: {
              [NAME_MATCH_HEADER]: {
                type: 'string',
                enum: [...NAME_MATCH_VALUES],
                description:
                  'How the name was resolved: `exact` (display name), `slug` (GitHub organisation), `alias`, `typo` (a confident typo, or the name without generic words such as Labs); `ambiguous` or `none` for a miss.',
              },
            },
            content: { 'application/json': { schema: z.union([Startup, SignalMiss]) } },
          },
          ...errorResponses(400, 429, 503),
        },
      },
    },
    (request, reply) => {
      const result = resolveStartup(currentSnapshot(ctx), request.query.company);
      reply.header(NAME_MATCH_HEADER, result.header);
      sendRendered(request, reply, result.rendered ?? MISS);
    },
  );
}
