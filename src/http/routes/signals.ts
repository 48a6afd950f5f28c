import type { FastifyInstance } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATA_LICENSE } from '../../domain/license.js';
import { resolveStartup, NAME_MATCH_HEADER, NAME_MATCH_VALUES } from '../../core/signals/resolve.js';
import { SignalMiss, SignalsResponse, Startup } from '../../schemas/signals.js';
import { renderedSender } from '../conditional.js';
import { derive, rendered, signalsCsv, type Rendered } from '../../snapshot/snapshot.js';
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
    .describe(
      'Display name or GitHub organisation slug; case-insensitive; confident typos only (see docs/api.md, "Name matching").',
    ),
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
interface LookupAnswer {
  body: Rendered;
  /** How the name was resolved (X-Name-Match). */
  how: string;
}
const lookupCache = derive(() => new Map<string, LookupAnswer>());

export async function signalsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The hot reads: every header they send is fixed per route and per body, so it is built once (renderedSender)
  // and the routes skip the per-request common-headers hook.
  const common = commonHeaders(ctx.config.server.baseUrl.startsWith('https:'));
  const hot = { commonHeadersPrepared: true };
  const sendLicensed = renderedSender({ ...common, link: LICENSE_LINK });
  const sendCanonical = renderedSender({
    ...common,
    link: `<${ctx.config.server.baseUrl}/api/signals.json>; rel="canonical", ${LICENSE_LINK}`,
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
      sendLicensed(request, reply, signalsCsv(currentSnapshot(ctx)));
    },
  );

  r.get(
    '/api/signal',
    {
      config: { ...hot, rateLimit: 'signal' },
      validatorCompiler: signalQueryValidator,
      schema: {
        summary: 'One startup by display name or GitHub organisation (case-insensitive, confident typos only)',
        description: `The startup whose display name or GitHub organisation slug the query names, or a confident typo of it (the matching rule is in docs/api.md, "Name matching"), never a substitute. Otherwise \`{ "found": false }\`, with \`candidates\` ("did you mean": name, org, why) when the name is ambiguous or close to one. The \`${NAME_MATCH_HEADER}\` header says how the name was resolved.`,
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
      const snapshot = currentSnapshot(ctx);
      const { company } = request.query;
      const answers = lookupCache(snapshot);
      let answer = answers.get(company);
      if (answer === undefined) {
        const result = resolveStartup(snapshot, company);
        answer = { body: result.rendered ?? MISS, how: result.header };
        if (answers.size >= LOOKUP_CACHE_SIZE) answers.clear();
        answers.set(company, answer);
      }
      reply.header(NAME_MATCH_HEADER, answer.how);
      sendLookup(request, reply, answer.body);
    },
  );
}
