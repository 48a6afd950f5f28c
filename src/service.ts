import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { buildServer } from './http/server.js';
import type { ReadinessProbe } from './http/routes/health.js';
import { SnapshotHolder, startPeriodPoller } from './snapshot/holder.js';
import { loadSnapshot } from './snapshot/load.js';
import { createStore, migrateToLatest, storeOptions, type OpeningStore, type Store } from './store/database.js';
import { countPeriods } from './store/periods.js';
import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import { startMetricsListener } from './http/plugins/observability.js';
import { setSnapshotPeriod, watchPipelineMetrics } from './metrics.js';
import { clusterInitialised } from './store/pglite-template.js';
import { pipelineFigures } from './store/pipeline.js';

export interface RunningService {
  app: FastifyInstance;
  store: Store;
  holder: SnapshotHolder;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  address: string;
  close(): Promise<void>;
}

/**
 * Starts the whole service: store (migrated), demo data on an empty store, the current snapshot, the HTTP server,
 * and the watcher that swaps in newly published periods.
 */
export interface StartOptions {
  /** A store already being opened (the CLI starts it before loading the server's code); opened here otherwise. */
  opening?: OpeningStore;
}

export async function startService(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningService> {
  // Each start phase in a debug line ({"msg":"start phase","phase":…,"ms":…}); the benchmark reports them.
  // CPU time beside wall time: on a busy machine the wall time mostly measures the neighbours.
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let mark = { wall: performance.now(), cpu: cpuMs() };
  const phase = (name: string) => {
    const now = { wall: performance.now(), cpu: cpuMs() };
    logger.debug(
      { phase: name, ms: Math.round(now.wall - mark.wall), cpuMs: Math.round(now.cpu - mark.cpu) },
      'start phase',
    );
    mark = now;
  };
  // Node's own start and the loading of the code, up to here.
  logger.debug({ phase: 'load code', ms: Math.round(mark.wall), cpuMs: Math.round(mark.cpu) }, 'start phase');
  const { store, ready } = options.opening ?? createStore(storeOptions(config.database));
  ready.catch(() => {}); // awaited (and reported) below
  // A first start on a new embedded data directory: make the demo dataset now, on this core, while the database's
  // host process initialises its cluster on the other one (the dataset is deterministic, so it is the one
  // seedDemoIfEmpty would make; it is written only if the store turns out to be empty).
  const early =
    config.demo.enabled && !config.database.url && !clusterInitialised(config.database.dataDir)
      ? (await import('./pipeline/demo/seed.js')).generateDemo({ seed: config.demo.seed })
      : undefined;
  if (early) phase('generate demo data (while the database initialises)');
  let limiterRedis: Redis | undefined;
  let redis: Redis | undefined;
  let metricsServer: Server | undefined;
  let app: FastifyInstance | undefined;
  try {
    // Redis and the HTTP server need neither the database nor the period: they are set up while the embedded
    // database's host process starts (its queries wait for it), and the period is loaded into the holder after.
    const probes: ReadinessProbe[] = [];
    if (config.redis.url) {
      // The Redis client is loaded only when one is configured (about 50 ms of the start otherwise).
      const { createRedis, pingRedis } = await import('./store/redis.js');
      const shared = createRedis(config.redis.url);
      redis = shared;
      await pingRedis(shared).catch((err) => logger.warn({ err }, 'redis is not reachable yet'));
      probes.push({ name: 'redis', check: () => pingRedis(shared) });
      // Rate-limit counters get their own connection: commands batched per tick, and a short timeout so a Redis that
      // hangs sends the decision to local memory quickly.
      if (config.rateLimiting.enabled) {
        const limiter = createRedis(config.redis.url, { commandTimeout: 500, enableAutoPipelining: true });
        limiterRedis = limiter;
        limiter.on('ready', () => logger.info('rate limits are shared through redis'));
        await limiter
          .connect()
          .catch((err) => logger.warn({ err }, 'redis is not reachable: rate limits use local memory until it is'));
      }
    }
    const holder = new SnapshotHolder();
    // The answer, search and diligence indexes of the period are built once the server listens (see warmUp).
    holder.deferWarmUp();
    holder.onSwap((s) => setSnapshotPeriod(s.period.slug, s.period.publishedAt), 'metrics period');
    const server = await buildServer({ config, store, holder, log: logger }, { probes, limiterRedis });
    app = server; // closed if a later step fails
    phase('build server');

    await ready;
    phase(store.hostsEmbedded ? 'open embedded database (rest of the wait)' : 'connect to database');
    await migrateToLatest(store.db);
    phase('migrate');
    watchPipelineMetrics(() => pipelineFigures(store.db));
    // The demo generator is loaded only for an empty store (seedDemoIfEmpty checks again, under a lock).
    if (config.demo.enabled && (await countPeriods(store.db)) === 0) {
      const { seedDemoIfEmpty } = await import('./pipeline/demo/seed.js');
      const written = await seedDemoIfEmpty(store.db, { seed: config.demo.seed }, early);
      if (written > 0) logger.info({ periods: written }, 'loaded the synthetic demo dataset');
      phase(early ? 'store demo data' : 'generate and store demo data');
    }
    const first = await loadSnapshot(store.db, config.server.baseUrl);
    if (first) holder.provide(first);
    else logger.warn('no period is published yet; data routes answer 503 until one is');
    phase('load snapshot');

    const stopPolling = startPeriodPoller({
      db: store.db,
      baseUrl: config.server.baseUrl,
      holder,
      intervalMs: config.periods.pollMs,
      onError: (err) => logger.warn({ err }, 'could not check for a new period'),
      onSwap: (s) =>
        logger.info({ period: s.period.slug, startups: s.startups.length }, 'serving a newly published period'),
    });
    await server.listen({ port: config.server.port, host: config.server.host });
    phase('listen');
    metricsServer = await startMetricsListener(config.metrics, logger);
    holder.warmUp(
      (err) => logger.error({ err }, 'could not build a per-period index'),
      (index, ms, cpuMs, longestStepMs) => logger.debug({ index, ms, cpuMs, longestStepMs }, 'per-period index built'),
    );
    const addr = server.server.address();
    const address =
      typeof addr === 'object' && addr
        ? `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`
        : config.server.baseUrl;
    logger.info(
      { address, baseUrl: config.server.baseUrl, database: store.mode, period: holder.current?.period.slug },
      'serving',
    );
    let closing: Promise<void> | undefined;
    return {
      app: server,
      store,
      holder,
      address,
      close() {
        closing ??= (async () => {
          stopPolling();
          // Stop accepting and let in-flight requests finish. A keep-alive connection whose response completes after
          // close() began would otherwise hold the server open until its idle timeout, so sweep idle ones meanwhile.
          const sweeper = setInterval(() => server.server.closeIdleConnections(), 100);
          try {
            await server.close();
          } finally {
            clearInterval(sweeper);
          }
          redis?.disconnect();
          limiterRedis?.disconnect();
          if (metricsServer) await new Promise((resolve) => metricsServer!.close(resolve));
          await store.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await app?.close().catch(() => {});
    redis?.disconnect();
    limiterRedis?.disconnect();
    metricsServer?.close();
    await store.close().catch(() => {});
    throw err;
  }
}
