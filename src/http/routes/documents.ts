import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AffiliateProgram,
  BrandGuide,
  Changelog,
  Glossary,
  MembersLedger,
  Methodology,
  Pricing,
} from '../../schemas/documents.js';
import type { Rendered } from '../../snapshot/snapshot.js';
import { PUBLIC_CACHE, sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';

/** The members ledger, affiliate program and brand guide: browsers keep 5 minutes, the edge 1 hour. */
export const EDGE_HOUR_CACHE = PUBLIC_CACHE;

/**
 * The published documents, served as the documents service built them (core/documents/service.ts): the fixed ones
 * once per process, the ones computed from data once per period, each with its strong ETag.
 */
export async function documentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { documents } = ctx.services;

  const canonical = (path: string) => ({ link: `<${ctx.urls.api(path)}>; rel="canonical"` });

  const changelogSchema = {
    summary: 'Changelog: interface releases and published data periods',
    description: 'Releases come from the human-written release log; periods are read from the store.',
    tags: ['documents'],
    response: { 200: Changelog, ...errorResponses(503) },
  };
  r.get('/api/changelog.json', { schema: { ...changelogSchema, operationId: 'getChangelog' } }, (request, reply) => {
    sendRendered(request, reply, documents.changelog(currentSnapshot(ctx)).body);
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
      sendRendered(request, reply, documents.changelog(currentSnapshot(ctx)).body, canonical('/api/changelog.json'));
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
    (request, reply) => sendRendered(request, reply, documents.methodology.body),
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
    (request, reply) => sendRendered(request, reply, documents.glossary.body),
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
    (request, reply) => sendRendered(request, reply, documents.pricing.body),
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
        body = await documents.membersLedger(snapshot);
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
    (request, reply) =>
      sendRendered(request, reply, documents.affiliateProgram(currentSnapshot(ctx)), {}, EDGE_HOUR_CACHE),
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
    (request, reply) => sendRendered(request, reply, documents.brandGuide(currentSnapshot(ctx)), {}, EDGE_HOUR_CACHE),
  );
}
