import type { FastifyInstance } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATA_LICENSE } from '../../domain/license.js';
import {
  resolveStartup,
  NAME_MATCH_HEADER,
  NAME_MATCH_VALUES,
  type NameMatchValue,
} from '../../core/signals/resolve.js';
import { SignalMiss, SignalsResponse, Startup } from '../../schemas/signals.js';
import { renderedSender, type RenderedSender } from '../conditional.js';
import type { FastRead } from '../fast-path.js';
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
  how: NameMatchValue;
}
const lookupCache = derive(() => new Map<string, LookupAnswer>());
/** The fast path's view of the same answers, keyed by the query string exactly as sent: no decoding per request. */
const rawLookupCache = derive(() => new Map<string, LookupAnswer>());

/** The raw query of a lookup that names only `company`: its value as the query parser decodes it, else undefined. */
function companyOf(query: string): string | undefined {
  if (!query.startsWith('company=') || query.includes('&')) return undefined;
  const value = query.slice('company='.length);
  if (!value.includes('%') && !value.includes('+')) return value;
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined; // malformed percent-encoding: the framework's parser has its own rule for it
  }
}

/**
 * The signal routes. `fast` receives the reads the fast path answers before the framework (fast-path.ts), built from
 * the routes' own senders and caches, so both send the same headers and bytes.
 */
export async function signalsRoutes(app: FastifyInstance, ctx: AppContext, fast: FastRead[] = []): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The hot reads: every header they send is fixed per route and per body, so it is built once (renderedSender)
  // and the routes skip the per-request common-headers hook.
  const common = commonHeaders(ctx.urls.secure);
  const hot = { commonHeadersPrepared: true };
  const sendLicensed = renderedSender({ ...common, link: LICENSE_LINK });
  const sendCanonical = renderedSender({
    ...common,
    link: `<${ctx.urls.base}/api/signals.json>; rel="canonical", ${LICENSE_LINK}`,
  });
  // One sender per X-Name-Match value, so the header is part of the prepared headers like the rest.
  const sendLookup = Object.fromEntries(
    NAME_MATCH_VALUES.map((how) => [how, renderedSender({ ...common, [NAME_MATCH_HEADER.toLowerCase()]: how })]),
  ) as Record<NameMatchValue, RenderedSender>;

  // The fast path's reads: the snapshot JSON without a query, and a lookup already answered in this period (the
  // query naming `company` only, as the route's cache holds it).
  const snapshotJson = (path: string, send: RenderedSender): FastRead => ({
    path,
    samePerPeriod: true,
    answer: (_rest, query) => {
      const entity = query === '' ? ctx.holder.current?.signalsJson : undefined;
      return entity && { entity, representations: send.representations(entity) };
    },
  });
  fast.push(snapshotJson('/api/signals.json', sendLicensed), snapshotJson('/api/v1/signals.json', sendCanonical));
  fast.push({
    path: '/api/signal',
    rateLimit: 'signal',
    // A period's answer to a query does not change (the route's cache is per period too).
    samePerPeriod: true,
    answer: (_rest, query) => {
      const snapshot = ctx.holder.current;
      if (snapshot === undefined) return undefined;
      const raw = rawLookupCache(snapshot);
      let answer = raw.get(query);
      if (answer === undefined) {
        const company = companyOf(query);
        answer = company === undefined ? undefined : lookupCache(snapshot).get(company);
        if (answer === undefined) return undefined;
        if (raw.size >= LOOKUP_CACHE_SIZE) raw.clear();
        raw.set(query, answer);
      }
      return { entity: answer.body, representations: sendLookup[answer.how].representations(answer.body) };
    },
  });

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
      sendLookup[answer.how](request, reply, answer.body);
    },
  );
}
