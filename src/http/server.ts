import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { AppContext } from './context.js';
import { registerOpenApi } from './openapi.js';
import { frameworkErrorHandler, registerErrorHandling } from './plugins/errors.js';
import { commonHeaders, registerCommonHeaders } from './plugins/headers.js';
import { datasetRoutes } from './routes/dataset.js';
import { healthRoutes, type ReadinessProbe } from './routes/health.js';
import { openApiRoutes } from './routes/openapi.js';
import { signalsRoutes } from './routes/signals.js';
import { answersRoutes } from './routes/answers.js';
import { searchRoutes } from './routes/search.js';
import { diligenceRoutes } from './routes/diligence.js';
import { nlwebRoutes } from './routes/nlweb.js';
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

export interface ServerOptions {
  logger?: Logger | boolean;
  probes?: ReadinessProbe[];
}

/**
 * Assembles the HTTP server: cross-cutting plugins first (errors, headers, OpenAPI), then each surface's routes.
 * Routes are thin: they validate input from their schema, ask the snapshot or a core service, and shape the output.
 */
export async function buildServer(ctx: AppContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: typeof options.logger === 'object' ? options.logger : undefined,
    logger: typeof options.logger === 'object' ? undefined : (options.logger ?? false),
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 64 * 1024,
    requestIdHeader: false,
    // No per-request access lines: they cost more than the request itself on the hot reads. Errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: false },
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler(commonHeaders(ctx.config.baseUrl.startsWith('https:'))),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerErrorHandling(app);
  registerCommonHeaders(app, ctx.config.baseUrl.startsWith('https:'));
  await registerOpenApi(app, ctx.config.baseUrl);

  await app.register(async (scope) => {
    await signalsRoutes(scope, ctx);
    await datasetRoutes(scope, ctx);
    await healthRoutes(scope, ctx, options.probes);
    await openApiRoutes(scope);
    await answersRoutes(scope, ctx);
    await searchRoutes(scope, ctx);
    await diligenceRoutes(scope, ctx);
    await nlwebRoutes(scope, ctx);
    await documentsRoutes(scope, ctx);
    await feedRoutes(scope, ctx);
    await citeRoutes(scope, ctx);
    await marketsRoutes(scope, ctx);
    await agentsRoutes(scope, ctx);
    await scoutRoutes(scope, ctx);
    await creditsRoutes(scope, ctx);
    await checkoutRoutes(scope, ctx);
    await x402Routes(scope, ctx);
    await solanaRoutes(scope, ctx);
  });
  return app;
}
