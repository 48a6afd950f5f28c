import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import proxyaddr from 'proxy-addr';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { App } from '../app.js';
import type { AppContext } from './context.js';
import { registerOpenApi } from './openapi.js';
import { frameworkErrorHandler, registerErrorHandling } from './plugins/errors.js';
import { commonHeaders, registerCommonHeaders } from './plugins/headers.js';
import { registerCompression } from './plugins/compression.js';
import { compileTrust } from './client-address.js';
import { capConnectionsPerAddress, closeSilentConnections, httpServerOptions } from './connections.js';
import { countConnectionRefused } from '../metrics.js';
import { authenticateRequest } from './credit-key.js';
import { metricsEnabled, registerObservability, requestIdGenerator } from './plugins/observability.js';
import { installFastPath, type FastRead } from './fast-path.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { datasetRoutes } from './routes/dataset.js';
import { healthRoutes } from './routes/health.js';
import { openApiRoutes } from './routes/openapi.js';
import { signalsRoutes } from './routes/signals.js';
import { answersRoutes } from './routes/answers.js';
import { searchRoutes } from './routes/search.js';
import { diligenceRoutes } from './routes/diligence.js';
import { nlwebRoutes } from './routes/nlweb.js';
import { backtestRoutes } from './routes/backtest.js';
import { documentsRoutes } from './routes/documents.js';
import { feedRoutes } from './routes/feed.js';
import { citeRoutes } from './routes/cite.js';
import { marketsRoutes } from './routes/markets.js';
import { agentsRoutes } from './routes/agents.js';
import { scoutRoutes } from './routes/scout.js';
import { creditsRoutes } from './routes/credits.js';
import { checkoutRoutes } from './routes/checkout.js';
import { x402Routes } from './routes/x402.js';
import { solanaRoutes } from './routes/solana.js';
import { mcpRoutes } from './routes/mcp.js';
import { a2aRoutes } from './routes/a2a.js';
import { alertsRoutes } from './routes/alerts.js';
import { HTML_CSP, htmlNotFound, siteRoutes } from './routes/site.js';
import { readSiteAssets } from '../web/assets.js';

/**
 * `request.ip` as Fastify computes it with the same trust function (the last address of proxy-addr's list), for the
 * fast path. Fastify bundles its own copy of proxy-addr's X-Forwarded-For parser, which differs from this one only in
 * whitespace other than spaces (tabs, non-ASCII): such a header gets undefined, and the framework decides.
 */
function clientAddress(trusted: (address: string, hop: number) => boolean) {
  return (req: IncomingMessage): string | undefined => {
    const forwarded = req.headers['x-forwarded-for'];
    if (forwarded !== undefined && (typeof forwarded !== 'string' || /[^\x20-\x7e]/.test(forwarded))) return undefined;
    return proxyaddr(req, trusted);
  };
}

/**
 * Assembles the HTTP server: cross-cutting plugins first (errors, headers, OpenAPI), then each surface's routes.
 * Routes are thin: they validate input from their schema, ask the snapshot or a core service, and shape the output.
 */
export async function buildServer(
  ctx: AppContext,
  options: Partial<Pick<App, 'probes' | 'limiterRedis'>> = {},
): Promise<FastifyInstance> {
  const common = commonHeaders(ctx.urls.secure);
  const requestId = requestIdGenerator(ctx.config.server);
  const app = Fastify({
    // Fastify gets no logger: with one, it attaches 'finish' and 'error' listeners to every response (to time it and
    // log its completion), even with request logging off, which cost about a quarter of a cached lookup's CPU
    // (4-5 µs a request, measured). The service logs through ctx.log, naming the request id; the access log
    // (ACCESS_LOG) and the metrics are onResponse hooks of their own, paid only when they are on.
    logger: false,
    trustProxy: compileTrust(ctx.config.server.trustProxy),
    bodyLimit: 64 * 1024,
    // A slow client cannot outlast these (src/http/connections.ts): headers, whole request (silence: below).
    http: httpServerOptions(ctx.config.server),
    requestTimeout: ctx.config.server.requestTimeoutMs,
    requestIdHeader: false,
    genReqId: requestId,
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: false },
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler(common),
  }) as unknown as FastifyInstance;
  const trusted = compileTrust(ctx.config.server.trustProxy);
  // Silence in both directions (connections.ts): one sweep for the server, not a timer re-armed per request.
  closeSilentConnections(app.server, ctx.config.server.idleTimeoutMs);
  capConnectionsPerAddress(
    app.server,
    ctx.config.server.maxConnectionsPerAddress,
    (address) => trusted(address, 0),
    countConnectionRefused,
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const siteAssets = readSiteAssets();
  registerErrorHandling(app, common, {
    log: ctx.log,
    htmlNotFound: (path) => htmlNotFound(ctx.urls.base, siteAssets, path),
    htmlHeaders: { 'content-security-policy': HTML_CSP },
    isDatabaseUnavailable: (err) => ctx.store.isUnavailable(err),
  });
  registerCommonHeaders(app, ctx.urls.secure);
  registerCompression(app);
  // Operations: limits and metrics hook into every route added after them; JSON routes take JSON only.
  const limits = registerRateLimit(app, ctx.config, {
    redis: options.limiterRedis,
    prefix: ctx.config.rateLimiting.redisPrefix,
    log: ctx.log,
    keyIsValid: (request) => authenticateRequest(ctx, request).then((outcome) => outcome.ok),
  });
  registerObservability(app, ctx.config, ctx.log);
  app.removeContentTypeParser('text/plain');
  await registerOpenApi(app, ctx.urls.base);

  const fastReads: FastRead[] = [];
  await app.register(async (scope) => {
    await signalsRoutes(scope, ctx, fastReads);
    await datasetRoutes(scope, ctx);
    await healthRoutes(scope, ctx, options.probes);
    await openApiRoutes(scope);
    await answersRoutes(scope, ctx);
    await searchRoutes(scope, ctx);
    await diligenceRoutes(scope, ctx);
    await nlwebRoutes(scope, ctx);
    await documentsRoutes(scope, ctx);
    await backtestRoutes(scope, ctx);
    await feedRoutes(scope, ctx);
    await citeRoutes(scope, ctx);
    await marketsRoutes(scope, ctx);
    await agentsRoutes(scope, ctx);
    await scoutRoutes(scope, ctx);
    await creditsRoutes(scope, ctx);
    await checkoutRoutes(scope, ctx, siteAssets);
    await x402Routes(scope, ctx);
    await solanaRoutes(scope, ctx);
    await mcpRoutes(scope, ctx);
    await a2aRoutes(scope, ctx);
    await alertsRoutes(scope, ctx, siteAssets);
    await siteRoutes(scope, ctx, siteAssets, fastReads);
  });
  // The hottest pre-rendered reads (the snapshot JSON, the lookup, the home and startup pages) skip the framework's
  // generic path (fast-path.ts), with the same headers, bytes and rate limits as their routes, which declared them and
  // answer whatever the fast path leaves. Off when the access log or metrics need their per-request hooks.
  if (!ctx.config.server.accessLog && !metricsEnabled(ctx.config.metrics)) {
    installFastPath(app.server, fastReads, {
      requestId,
      clientAddress: clientAddress(trusted),
      limits,
      period: ctx.holder,
    });
  }
  return app;
}
