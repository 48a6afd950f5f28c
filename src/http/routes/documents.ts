import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildAffiliateProgram, readAffiliates } from '../../core/documents/affiliates.js';
import { buildChangelog, readReleaseLog } from '../../core/documents/changelog.js';
import { documentsDir } from '../../core/documents/content.js';
import { buildGlossary, readGlossary } from '../../core/documents/glossary.js';
import { buildBrandGuide, readBrandGuide } from '../../core/documents/mascot.js';
import { buildMembersLedger, readMembers } from '../../core/documents/members.js';
import { buildMethodology } from '../../core/documents/methodology.js';
import { buildPricing } from '../../core/documents/pricing.js';
import {
  AffiliateProgram,
  BrandGuide,
  Changelog,
  Glossary,
  MembersLedger,
  Methodology,
  Pricing,
} from '../../schemas/documents.js';
import { deriveAsync } from '../../snapshot/derive-async.js';
import { derive, rendered, type Rendered, type Snapshot } from '../../snapshot/snapshot.js';
import { trendingHistory } from '../../snapshot/history.js';
import { PUBLIC_CACHE, sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (value: unknown): Rendered => rendered(JSON.stringify(value), JSON_TYPE);

/** The members ledger, affiliate program and brand guide: browsers keep 5 minutes, the edge 1 hour. */
export const EDGE_HOUR_CACHE = PUBLIC_CACHE;

/**
 * The published documents. Their content is read and checked when the server starts (a bad file stops it); the
 * parts computed from data are rendered once per snapshot and served with strong ETags.
 */
export async function documentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const baseUrl = ctx.urls.base;
  const dir = documentsDir(ctx.config.documents);
  const releaseLog = readReleaseLog(dir);
  const glossary = json(buildGlossary(readGlossary(dir), baseUrl));
  const methodology = json(buildMethodology(baseUrl));
  const pricing = json(buildPricing(baseUrl));
  const members = readMembers(dir);
  const affiliates = readAffiliates(dir);
  const mascot = readBrandGuide(dir);

  const changelogOf = derive((s) => json(buildChangelog(releaseLog, s.periods, baseUrl)));
  const affiliatesOf = derive((s) => json(buildAffiliateProgram(affiliates, s, baseUrl)));
  const mascotOf = derive((s) => json(buildBrandGuide(mascot, s, baseUrl)));
  const membersOf = deriveAsync(async (s: Snapshot) =>
    json(
      buildMembersLedger({
        data: members,
        publishedPeriods: s.periods,
        trending: (await trendingHistory(s)).map((row) => ({
          period: row.period,
          login: row.login,
          rank: row.rankOverall!,
          name: row.startup.name,
        })),
        names: new Map(s.startups.map((st) => [st.login.toLowerCase(), st.startup.name])),
        baseUrl,
      }),
    ),
  );

  const canonical = (path: string) => ({ link: `<${ctx.urls.api(path)}>; rel="canonical"` });

  const changelogSchema = {
    summary: 'Changelog: interface releases and published data periods',
    description: 'Releases come from the human-written release log; periods are read from the store.',
    tags: ['documents'],
    response: { 200: Changelog, ...errorResponses(503) },
  };
  r.get('/api/changelog.json', { schema: { ...changelogSchema, operationId: 'getChangelog' } }, (request, reply) => {
    sendRendered(request, reply, changelogOf(currentSnapshot(ctx)));
  });
  r.get(
    '/api/v1/changelog.json',
    {
      schema: {
        ...changelogSchema,
        operationId: 'getChangelogV1',
        description: 'Byte-identical to /api/changelog.json.',
      },
    },
    (request, reply) => {
      sendRendered(request, reply, changelogOf(currentSnapshot(ctx)), canonical('/api/changelog.json'));
    },
  );

  r.get(
    '/api/v1/methodology.json',
    {
      schema: {
        summary: 'Methodology: the six pipeline steps as a schema.org HowTo',
        description: 'Steps collect, filter, normalise, accelerate, classify and rank, with formulas and the code.',
        tags: ['documents'],
        operationId: 'getMethodology',
        response: { 200: Methodology },
      },
    },
    (request, reply) => sendRendered(request, reply, methodology),
  );

  r.get(
    '/api/v1/glossary.json',
    {
      schema: {
        summary: 'Glossary: the 18 terms the API uses, as a schema.org DefinedTermSet',
        tags: ['documents'],
        operationId: 'getGlossary',
        response: { 200: Glossary },
      },
    },
    (request, reply) => sendRendered(request, reply, glossary),
  );

  r.get(
    '/api/v1/pricing.json',
    {
      schema: {
        summary: 'Pricing: tiers with stable slugs, prices, currency and an as-of timestamp',
        tags: ['documents'],
        operationId: 'getPricing',
        response: { 200: Pricing },
      },
    },
    (request, reply) => sendRendered(request, reply, pricing),
  );

  r.get(
    '/api/v1/members.json',
    {
      schema: {
        summary: 'Members ledger: graded picks, aggregate and leaderboard',
        description:
          'Each pick is graded hit / miss / pending against the trending lists of the published periods (see grading_rules). Cached at the edge for 1 hour.',
        tags: ['documents'],
        operationId: 'getMembers',
        response: { 200: MembersLedger, ...errorResponses(503) },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const snapshot = currentSnapshot(ctx);
      let body: Rendered;
      try {
        body = await membersOf(snapshot);
      } catch (err) {
        ctx.log.warn({ reqId: request.id, err }, 'could not read the trending history for the members ledger');
        throw new ServiceError('ledger-store-silent', {}, { retryAfterSeconds: 5 });
      }
      sendRendered(request, reply, body, {}, EDGE_HOUR_CACHE);
      return reply;
    },
  );

  r.get(
    '/api/v1/affiliates.json',
    {
      schema: {
        summary: 'Affiliate program: terms, stats and the pseudonymised top-10 leaderboard',
        description: 'Updated monthly. Cached at the edge for 1 hour.',
        tags: ['documents'],
        operationId: 'getAffiliates',
        response: { 200: AffiliateProgram, ...errorResponses(503) },
      },
    },
    (request, reply) => sendRendered(request, reply, affiliatesOf(currentSnapshot(ctx)), {}, EDGE_HOUR_CACHE),
  );

  r.get(
    '/api/v1/social-mascot.json',
    {
      schema: {
        summary: 'Brand guide of the social mascot, with a sample batch from the current period',
        description: 'Cached at the edge for 1 hour.',
        tags: ['documents'],
        operationId: 'getSocialMascot',
        response: { 200: BrandGuide, ...errorResponses(503) },
      },
    },
    (request, reply) => sendRendered(request, reply, mascotOf(currentSnapshot(ctx)), {}, EDGE_HOUR_CACHE),
  );
}
