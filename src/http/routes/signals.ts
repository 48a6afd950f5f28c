import type { FastifyInstance } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATA_LICENSE } from '../../core/license.js';
import { SignalMiss, SignalsResponse, Startup } from '../../schemas/signals.js';
import { renderedSender } from '../conditional.js';
import { derive, rendered, type Rendered } from '../../snapshot/snapshot.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { commonHeaders } from '../plugins/headers.js';

const MISS = rendered(JSON.stringify({ found: false }), 'application/json; charset=utf-8');
export const LICENSE_LINK = `<${DATA_LICENSE.url}>; rel="license"`;

const COMPANY_MAX = 80;
export const SignalQuery = z.object({
  company: z
    .string()
    .min(1)
    .max(COMPANY_MAX)
    .describe('Display name or GitHub organisation slug; case-insensitive, fuzzy.'),
});

/**
 * /api/signal's query validation: a single `company` string of an accepted length, the shape nearly every request
 * has, passes with two comparisons; anything else goes to the zod schema, which accepts or explains the error.
 */
function signalQueryValidator<S>(route: FastifyRouteSchemaDef<S>): FastifyValidationResult {
  const full = validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
  return (data: unknown) => {
    const query = data as Record<string, unknown> | null;
    const company = query?.company;
    if (typeof company === 'string' && company.length >= 1 && company.length <= COMPANY_MAX) {
      let keys = 0;
      for (const key in query) if (Object.hasOwn(query!, key)) keys++;
      if (keys === 1) return { value: query };
    }
    return full(data);
  };
}

/** Answers per raw query, per snapshot: a repeated query skips name folding and the matcher's own cache. */
const LOOKUP_CACHE_SIZE = 10_000;
const lookupCache = derive(() => new Map<string, Rendered>());

export async function signalsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The hot reads: every header they send is fixed per route and per body, so it is built once (renderedSender)
  // and the routes skip the per-request common-headers hook.
  const common = commonHeaders(ctx.config.baseUrl.startsWith('https:'));
  const hot = { commonHeadersPrepared: true };
  const sendLicensed = renderedSender({ ...common, link: LICENSE_LINK });
  const sendCanonical = renderedSender({
    ...common,
    link: `<${ctx.config.baseUrl}/api/signals.json>; rel="canonical", ${LICENSE_LINK}`,
  });
  const sendLookup = renderedSender(common);

  const signalsSchema = {
    summary: 'Current period: trending startups and per-sector rankings',
    tags: ['signals'],
    response: { 200: SignalsResponse, ...errorResponses(503) },
  };
  r.get(
    '/api/signals.json',
    { config: hot, schema: { ...signalsSchema, operationId: 'getSignals' } },
    (request, reply) => {
      sendLicensed(request, reply, currentSnapshot(ctx).signalsJson);
    },
  );
  r.get(
    '/api/v1/signals.json',
    {
      config: hot,
      schema: { ...signalsSchema, operationId: 'getSignalsV1', description: 'Byte-identical to /api/signals.json.' },
    },
    (request, reply) => {
      sendCanonical(request, reply, currentSnapshot(ctx).signalsJson);
    },
  );

  r.get(
    '/api/signals.csv',
    {
      config: hot,
      schema: {
        summary: 'Current period as CSV (RFC 4180), one row per startup',
        description:
          'Columns: period, sector, sectorRank, trendingRank, then every Startup field. Cells that could start a spreadsheet formula are prefixed with an apostrophe.',
        tags: ['signals'],
        operationId: 'getSignalsCsv',
        response: { 200: textContent('text/csv', 'RFC 4180 CSV with a header row.'), ...errorResponses(503) },
      },
    },
    (request, reply) => {
      sendLicensed(request, reply, currentSnapshot(ctx).signalsCsv);
    },
  );

  r.get(
    '/api/signal',
    {
      config: hot,
      validatorCompiler: signalQueryValidator,
      schema: {
        summary: 'One startup by display name or GitHub organisation (fuzzy, case-insensitive)',
        description: 'Returns the best match by name similarity, or `{ "found": false }` when nothing is close enough.',
        tags: ['signals'],
        operationId: 'getSignal',
        querystring: SignalQuery,
        response: { 200: z.union([Startup, SignalMiss]), ...errorResponses(400, 429, 503) },
      },
    },
    (request, reply) => {
      const snapshot = currentSnapshot(ctx);
      const { company } = request.query;
      const answers = lookupCache(snapshot);
      let answer = answers.get(company);
      if (answer === undefined) {
        const match = snapshot.matcher.best(company);
        answer = match ? match.item.json : MISS;
        if (answers.size >= LOOKUP_CACHE_SIZE) answers.clear();
        answers.set(company, answer);
      }
      sendLookup(request, reply, answer);
    },
  );
}
