import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GITHUB_USERNAME_PATTERN } from '../../schemas/enums.js';
import { builtWithBadge, messageBadge, momentumBadge, scoutBadge } from '../../core/scout/badges.js';
import { renderScoutCard } from '../../core/scout/card.js';
import { validatedCompanies } from '../../core/scout/companies.js';
import { ScoutError } from '../../core/scout/index.js';
import { PredictQuery, ReceiptsParams, ScoutPredictions, ScoutReceipts } from '../../schemas/scout.js';
import { strongEtag } from '../../snapshot/snapshot.js';
import { notModified, PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';

const SVG = 'image/svg+xml; charset=utf-8';
/** Receipts change when the star history is refreshed (daily by default): a few minutes in any cache is fine. */
const RECEIPTS_CACHE = 'public, max-age=300';
/** An "invalid" badge never becomes valid; an "unavailable" one should be retried soon. */
const INVALID_CACHE = 'public, max-age=86400';
const UNAVAILABLE_CACHE = 'no-store';

/** GitHub's rule for repository names: letters, digits, `.`, `-`, `_`, at most 100, and not `.` or `..`. */
const REPOSITORY_PATTERN = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;

// Badge path segments are checked in the handler, so a bad one still gets an SVG (an "invalid" badge) back.
const AnySegment = z.string().max(200);
const UsernameSegment = AnySegment.describe(
  'GitHub username (1–39 characters, alphanumeric with single interior hyphens). Anything else: an "invalid" badge with status 400.',
);

function svgResponses(description: string) {
  return {
    200: textContent('image/svg+xml', description),
    400: textContent('image/svg+xml', 'An "invalid" badge: a path segment breaks GitHub\'s naming rule.'),
  };
}

/** Sends an SVG with a strong ETag (304 when the client has it) and open CORS (set for every response). */
function sendSvg(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  svg: string,
  cacheControl: string,
  headers: Record<string, string> = {},
): void {
  const etag = strongEtag(svg);
  reply.headers(headers).header('etag', etag).header('cache-control', cacheControl);
  if (status === 200 && notModified(request, etag)) {
    reply.code(304).send();
    return;
  }
  reply.code(status).header('content-type', SVG).send(svg);
}

/** A scout error as a badge: the status stays (400, 404, 503 with Retry-After); the text is a fixed word. */
async function sendScoutErrorBadge(request: FastifyRequest, reply: FastifyReply, err: ScoutError): Promise<void> {
  const word = err.status === 400 ? 'invalid' : err.status === 404 ? 'unknown user' : 'unavailable';
  const cache = err.status === 503 ? UNAVAILABLE_CACHE : err.status === 400 ? INVALID_CACHE : RECEIPTS_CACHE;
  const retryAfter: Record<string, string> =
    err.retryAfterSeconds !== undefined ? { 'retry-after': String(err.retryAfterSeconds) } : {};
  sendSvg(request, reply, err.status, await messageBadge('scout score', word), cache, retryAfter);
}

/** Scout Score receipts, predictions, the shareable card and the SVG badges. */
export async function scoutRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Read and check the validated-company list now: a bad data file stops the start, naming the record.
  validatedCompanies();

  r.get(
    '/api/receipts/:username',
    {
      config: { rateLimit: 'receipts' },
      schema: {
        summary: 'Scout Score receipts of a GitHub user',
        description:
          'How early the user starred the GitHub organisations of validated companies (IPO, acquisition or priced round, each with a public source) before their milestone: score 0–100, rank (curious, scout, sharp, elite, oracle), top early calls, a personality summary and a shareable card URL. Star histories are cached in the database (SCOUT_CACHE_TTL_SECONDS) and revalidated with conditional requests. 503 with Retry-After when GitHub is unreachable or its request budget is spent (60 an hour without GITHUB_TOKEN). Rate limit: 10 per minute per client, burst 20.',
        tags: ['scout'],
        operationId: 'getScoutReceipts',
        params: ReceiptsParams,
        response: {
          200: ScoutReceipts,
          ...errorResponses(400, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const receipts = await ctx.services.scout.receipts(request.params.username);
      reply.header('cache-control', RECEIPTS_CACHE);
      return receipts;
    },
  );

  r.get(
    '/api/scout/predict',
    {
      schema: {
        summary: 'Scout predictions: tracked startups a user is likely to be early on',
        description:
          "Experimental. The user's starring profile (languages, topics mapped to sectors, organisations) matched against the current period's signals; each prediction carries its reasons and the startup's signal data.",
        tags: ['scout'],
        operationId: 'getScoutPredictions',
        querystring: PredictQuery,
        response: { 200: ScoutPredictions, ...errorResponses(400, 404, 503) },
      },
    },
    async (request, reply) => {
      const snapshot = currentSnapshot(ctx);
      const body = await ctx.services.scout.predictions(request.query.username, snapshot, request.query.limit);
      reply.header('cache-control', RECEIPTS_CACHE);
      return body;
    },
  );

  r.get(
    '/api/scout/card/:username/svg',
    {
      schema: {
        summary: 'Shareable Scout Score card (SVG)',
        description: 'The card behind `cardUrl` in the receipts: score, rank, best calls and personality summary.',
        tags: ['scout'],
        operationId: 'getScoutCard',
        params: z.object({ username: UsernameSegment }),
        response: {
          200: textContent('image/svg+xml', 'A 640×320 SVG card.'),
          ...errorResponses(400, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const receipts = await ctx.services.scout.receipts(request.params.username);
      sendSvg(request, reply, 200, renderScoutCard(receipts), RECEIPTS_CACHE);
      return reply;
    },
  );

  r.get(
    '/api/badge/scout/:username/svg',
    {
      schema: {
        summary: 'Scout Score badge (SVG)',
        description:
          'Score and rank as a shields.io-style badge. Invalid username: an "invalid" badge (400); unknown user: "unknown user" (404); GitHub unavailable: "unavailable" (503, Retry-After).',
        tags: ['scout'],
        operationId: 'getScoutBadge',
        params: z.object({ username: UsernameSegment }),
        response: {
          ...svgResponses('The badge.'),
          404: textContent('image/svg+xml', 'An "unknown user" badge.'),
          503: textContent('image/svg+xml', 'An "unavailable" badge; Retry-After says when to retry.'),
        },
      },
    },
    async (request, reply) => {
      try {
        const receipts = await ctx.services.scout.receipts(request.params.username);
        sendSvg(request, reply, 200, await scoutBadge(receipts.score, receipts.rank), RECEIPTS_CACHE);
      } catch (err) {
        if (!(err instanceof ScoutError)) throw err;
        await sendScoutErrorBadge(request, reply, err);
      }
      return reply;
    },
  );

  let builtWith: Promise<string> | undefined; // rendered once, at the first request
  r.get(
    '/api/badge/built-with/svg',
    {
      schema: {
        summary: '"Built with Signal Service" badge (SVG)',
        tags: ['scout'],
        operationId: 'getBuiltWithBadge',
        response: {
          200: textContent('image/svg+xml', 'The badge.'),
        },
      },
    },
    async (request, reply) => {
      sendSvg(request, reply, 200, await (builtWith ??= builtWithBadge()), PUBLIC_CACHE);
      return reply;
    },
  );

  r.get(
    '/api/badge/momentum/:org/:repo/svg',
    {
      schema: {
        summary: 'Momentum badge of a repository (SVG)',
        description:
          'Momentum tier of the organisation in the current period, from its composite score: surging (75+), rising (50+), steady (25+), quiet; "untracked" when the organisation is not tracked. Invalid segments: an "invalid" badge (400).',
        tags: ['scout'],
        operationId: 'getMomentumBadge',
        params: z.object({
          org: AnySegment.describe('GitHub organisation (same rule as usernames).'),
          repo: AnySegment.describe('Repository name: letters, digits, ".", "-", "_", at most 100.'),
        }),
        response: svgResponses('The badge.'),
      },
    },
    async (request, reply) => {
      const { org, repo } = request.params;
      if (!GITHUB_USERNAME_PATTERN.test(org) || !REPOSITORY_PATTERN.test(repo)) {
        sendSvg(request, reply, 400, await messageBadge('momentum', 'invalid'), INVALID_CACHE);
        return reply;
      }
      sendSvg(request, reply, 200, await momentumBadge(ctx.holder.current, org), PUBLIC_CACHE);
      return reply;
    },
  );
}
