import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config, DatabaseConfig } from './config.js';
import { documentsDir } from './core/documents/content.js';
import { DocumentsService } from './core/documents/service.js';
import { answerCorpus } from './core/answers/corpus.js';
import { diligenceIndex } from './core/diligence/dossier.js';
import { MarketsService } from './core/markets/markets.js';
import { ScoutService } from './core/scout/index.js';
import { siteSearch } from './core/search/documents.js';
import { setSnapshotPeriod, watchPipelineMetrics } from './metrics.js';
import { createCheckout, type Checkout } from './payments/checkout.js';
import { createMailer, startMailOutbox } from './payments/mail.js';
import { SecretBox } from './payments/secret-box.js';
import { AlertsService } from './core/alerts/service.js';
import { startWebhookQueue, type DeliveryOptions } from './core/alerts/delivery.js';
import { alertsSecret, alertsPolicy } from './core/alerts/setup.js';
import { trackedStartups } from './core/alerts/tracked.js';
import type { Resolver } from './core/alerts/address-guard.js';
import { purgeExpiredIdempotency } from './payments/paid-deep-signal.js';
import { loadA2aTask, purgeA2aTasks, saveA2aTask } from './store/a2a-tasks.js';
import { refundExpiredHolds } from './payments/ledger.js';
import type { SolanaSeller } from './payments/solana/seller.js';
import type { X402Clients } from './payments/x402/clients.js';
import { datasetExport, startupSeries } from './snapshot/history.js';
import { SnapshotHolder, startPeriodPoller, type SnapshotListener, type WarmUpMeasure } from './snapshot/holder.js';
import { loadSnapshot } from './snapshot/load.js';
import { lastCompletePeriod } from './domain/periods.js';
import { siteUrls, type SiteUrls } from './domain/urls.js';
import { signalsCsv, type PeriodSource, type Snapshot } from './snapshot/snapshot.js';
import {
  createStore,
  migrateToLatest,
  openStore,
  servingStoreOptions,
  type OpeningStore,
  type Store,
} from './store/database.js';
import { clusterInitialised } from './store/pglite-template.js';
import { countPeriods } from './store/periods.js';
import { pipelineFigures } from './store/pipeline.js';

/** A dependency whose health /readyz reports (the database is always checked; these are the others). */
export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

/** The services every surface calls. Built once per process by `createApp`, from the configuration. */
export interface AppServices {
  /** The published documents and the content behind them (blog, glossary, changelog, ledgers, citations). */
  documents: DocumentsService;
  markets: MarketsService;
  scout: ScoutService;
  /**
   * The x402 facilitator and token-contract clients, shared by the REST and MCP sellers and the reconciler; undefined
   * unless X402_PAY_TO is set, and in a process that sells nothing (signal-mcp).
   */
  x402: X402Clients | undefined;
  /** The Solana credit pack's terms and RPC client; undefined unless SOLANA_PAY_TO is set, and in signal-mcp. */
  solana: SolanaSeller | undefined;
  /** Card checkout of the credit pack; undefined unless Stripe is configured. */
  checkout: Checkout | undefined;
  /** True when bought keys are also e-mailed (checkout and SMTP both configured). */
  mailsKeys: boolean;
  /** Wakes the mail outbox (a key e-mail was just queued); a no-op without SMTP. */
  kickMail(): void;
  /** Alert subscriptions (docs/alerts.md); undefined when alerts are off (PostgreSQL without ALERTS_SECRET). */
  alerts: AlertsService | undefined;
  /** A2A tasks, kept in the database so that tasks/get answers on every instance (store/a2a-tasks.ts). */
  a2aTasks: { save(id: string, task: unknown): Promise<void>; load(id: string): Promise<unknown> };
}

/**
 * The application: configuration, logger, store, the holder of the current period and the services, with the
 * background jobs that keep them current. Every entry point builds it with `createApp` — the HTTP server
 * (`serve`), `signal-mcp`, the CLI — so none of them re-implements the start.
 */
export interface App {
  config: Config;
  log: Logger;
  store: Store;
  holder: SnapshotHolder;
  /**
   * The service's own absolute URLs (its base URL and the builders of every canonical URL), built once from the
   * configured BASE_URL: surfaces link through these, never through the configuration.
   */
  urls: SiteUrls;
  services: AppServices;
  /** Shared Redis connection (REDIS_URL), if configured. */
  redis: Redis | undefined;
  /** Redis connection for the rate-limit counters (short timeouts, auto-pipelining), if configured and limits are on. */
  limiterRedis: Redis | undefined;
  probes: ReadinessProbe[];
  /**
   * Waits for the store, migrates it, stores the demo dataset into an empty store (DEMO_DATA), loads the newest
   * period into the holder and starts the background jobs: the period watcher, the hourly purge of expired
   * idempotency records and the mail outbox. `phase` hears the end of each step (the start's debug lines).
   */
  open(phase?: (name: string) => void): Promise<void>;
  /**
   * Builds the current period's indexes and pre-rendered bodies in the background, one step per event-loop turn
   * (the warm-up): the server calls it once it listens, so the hot reads are answered first.
   */
  warmUp(measured?: WarmUpMeasure): void;
  close(): Promise<void>;
}

/**
 * What every surface receives — REST routes, agent tools, A2A, MCP, pages: the application's configuration, store,
 * current period's holder, its own URLs, services and logger. Surfaces log through `log`, naming the request id (`reqId`)
 * themselves: Fastify has no logger (see buildServer), so `request.log` logs nothing.
 */
export type AppContext = Pick<App, 'config' | 'store' | 'holder' | 'urls' | 'log' | 'services'>;

export interface AppOptions {
  /** A store already being opened (the CLI starts it before loading the server's code); opened here otherwise. */
  opening?: OpeningStore;
  /** PostgreSQL connections of this process (a second process beside the server takes fewer). */
  poolSize?: number;
  /** Set by entry points that serve no HTTP (signal-mcp): no mail outbox, no idempotency purge. */
  jobs?: 'all' | 'period-only';
  /** Hears the end of each start step (the server's "start phase" debug lines). */
  phase?: (name: string) => void;
  /**
   * A period built in memory (tests, benchmarks) served instead of the store's newest: open() neither stores demo
   * data nor watches for new periods (the other jobs, the purge and the mail outbox, start as usual).
   */
  snapshot?: Snapshot;
  /** Resolves webhook host names (tests answer names themselves); the system resolver otherwise. */
  webhookResolver?: Resolver;
}

/**
 * What the warm-up builds for each new period, in this order: the bodies and indexes the surfaces read. Each is
 * also built by the first request that needs it sooner, so the order only decides what is ready first.
 */
function periodWarmUps(baseUrl: string): { name: string; build: SnapshotListener; ahead: boolean }[] {
  // `ahead`: built in steps for a newly published period before it is swapped in (SnapshotHolder.advance), so no
  // request after the swap builds the rest of one itself in one go.
  return [
    { name: 'signals csv', build: (s) => signalsCsv.warm(s), ahead: true },
    // These two read the store: the holder follows their promises (settled() waits for them), and logs a failure; a
    // request that needs one before it is built, or after it failed, reads it again (waiting without holding others).
    { name: 'dataset export', build: (s) => datasetExport(s), ahead: false },
    { name: 'site series', build: (s) => startupSeries(s), ahead: false },
    { name: 'search index', build: (s) => siteSearch.warm(s, baseUrl), ahead: true },
    { name: 'answer corpus', build: (s) => answerCorpus.warm(s, baseUrl), ahead: true },
    { name: 'diligence index', build: (s) => diligenceIndex.warm(s, baseUrl), ahead: true },
  ];
}

export async function createApp(config: Config, log: Logger, options: AppOptions = {}): Promise<App> {
  // The serving process watches its PostgreSQL (a breaker: queries fail fast while it does not answer) and keeps its
  // idle connections (servingStoreOptions).
  const opening =
    options.opening ??
    createStore({
      ...servingStoreOptions(config.database),
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    });
  const { store, ready } = opening;
  ready.catch(() => {}); // awaited (and reported) by open()
  const urls = siteUrls(config.server.baseUrl);
  const baseUrl = urls.base;
  // A first start on a new embedded data directory: make the demo's newest week now, while the database's host
  // process initialises its cluster on the other core (the dataset is deterministic, so it is the week seedDemoIfEmpty
  // would store; the earlier weeks are generated once the server serves, and stored only if the store is empty).
  const firstDemo =
    config.demo.enabled && !options.snapshot && !config.database.url && !clusterInitialised(config.database.dataDir)
      ? { seed: config.demo.seed, endPeriod: lastCompletePeriod(new Date()) }
      : undefined;
  const early = firstDemo && (await import('./pipeline/demo/seed.js')).generateDemoLatest(firstDemo);
  if (early) options.phase?.("generate the demo's newest week (while the database initialises)");

  const probes: ReadinessProbe[] = [];
  let redis: Redis | undefined;
  let limiterRedis: Redis | undefined;
  const stops: (() => void | Promise<void>)[] = [];
  try {
    if (config.redis.url) {
      // The Redis client is loaded only when one is configured (about 50 ms of the start otherwise).
      const { createRedis, pingRedis } = await import('./store/redis.js');
      const shared = createRedis(config.redis.url);
      redis = shared;
      await pingRedis(shared).catch((err) => log.warn({ err }, 'redis is not reachable yet'));
      probes.push({ name: 'redis', check: () => pingRedis(shared) });
      // Rate-limit counters get their own connection: commands batched per tick, and a short timeout so a Redis that
      // hangs sends the decision to local memory quickly.
      if (config.rateLimiting.enabled && options.jobs !== 'period-only') {
        const limiter = createRedis(config.redis.url, {
          commandTimeout: config.redis.commandTimeoutMs,
          enableAutoPipelining: true,
        });
        limiterRedis = limiter;
        limiter.on('ready', () => log.info('rate limits are shared through redis'));
        await limiter
          .connect()
          .catch((err) => log.warn({ err }, 'redis is not reachable: rate limits use local memory until it is'));
      }
    }

    const holder = new SnapshotHolder();
    // The per-period indexes are built once the server listens (warmUp), not during the start.
    holder.deferWarmUp();
    holder.onSwap((s) => setSnapshotPeriod(s.period.slug, s.period.publishedAt), 'metrics period');
    for (const warm of periodWarmUps(baseUrl)) holder.onSwap(warm.build, warm.name, warm);

    const checkout =
      options.jobs === 'period-only'
        ? undefined
        : await createCheckout(config.stripe, {
            baseUrl,
            mail: Boolean(config.mail.smtpUrl),
          });
    // The payment clients are loaded only where their payments are configured: a start needs neither otherwise.
    const x402 =
      options.jobs === 'period-only' || !config.x402.payTo
        ? undefined
        : (await import('./payments/x402/clients.js')).x402Clients(config.x402);
    const solana =
      options.jobs === 'period-only' || !config.solana.payTo
        ? undefined
        : await (await import('./payments/solana/seller.js')).solanaSeller(config.solana);
    // The mailer sends bought keys (with checkout) and alert digests; only serving processes send mail.
    const mailer = options.jobs === 'period-only' ? undefined : await createMailer(config.mail);
    let kickMail = () => {};
    // Alerts: the secret seals webhook secrets and signs feed and unsubscribe links.
    const alertSecret = alertsSecret(config);
    if (!alertSecret) log.warn('alerts are off: set ALERTS_SECRET (the same on every instance) to turn them on');
    // One sealing box and one address policy, shared by the service (creation, the log) and its delivery queue.
    const alertParts = alertSecret
      ? { box: new SecretBox(alertSecret), policy: alertsPolicy(config.alerts, options.webhookResolver) }
      : undefined;
    const alerts =
      alertSecret && alertParts
        ? new AlertsService({
            db: store.db,
            baseUrl,
            ...alertParts,
            tokenSecret: alertSecret,
            mail: Boolean(config.mail.smtpUrl),
            tracked: trackedStartups(() => holder.current, baseUrl),
          })
        : undefined;
    let scout: ScoutService | undefined;
    let documents: DocumentsService | undefined;
    const services: AppServices = {
      // Read and checked at first use: in a server, as it registers its routes (a bad file stops the start); in
      // signal-mcp, only when a tool answers with a document (get_methodology).
      get documents() {
        return (documents ??= new DocumentsService(documentsDir(config.documents), baseUrl));
      },
      markets: new MarketsService(documentsDir(config.documents), baseUrl),
      x402,
      solana,
      // Made at first use: its GitHub client is not needed by a start.
      get scout() {
        return (scout ??= new ScoutService({ github: config.github, scout: config.scout, baseUrl }, store));
      },
      checkout,
      mailsKeys: Boolean(checkout && mailer),
      kickMail: () => kickMail(),
      alerts,
      a2aTasks: { save: (id, task) => saveA2aTask(store.db, id, task), load: (id) => loadA2aTask(store.db, id) },
    };

    /** The jobs of a serving process, whichever period it serves: the hourly purge and the mail outbox. */
    const startJobs = () => {
      if (options.jobs === 'period-only') return;
      // Idempotency-Key records past their 24 hours are never replayed, nor A2A tasks unchanged for a day fetched:
      // drop them hourly so the tables stay small.
      const purge = setInterval(() => {
        void purgeExpiredIdempotency(store.db).catch(() => {});
        void purgeA2aTasks(store.db).catch(() => {});
      }, 3_600_000);
      purge.unref();
      stops.push(() => clearInterval(purge));
      // x402 settlements left pending by a lost request: settled against the token contract, or dropped once expired.
      if (x402) {
        const { chain } = x402;
        let stopped = false;
        let stopReconciler = () => {};
        stops.push(() => {
          stopped = true;
          stopReconciler();
        });
        void import('./payments/x402/reconcile.js')
          .then(({ startX402Reconciler }) => {
            if (stopped) return;
            stopReconciler = startX402Reconciler({
              db: store.db,
              chain,
              log,
              intervalMs: config.x402.reconcileMs,
            });
          })
          .catch((err) => log.error({ err }, 'could not start the x402 reconciler'));
      }
      // Held charges nobody confirmed (an instance died between charge and answer) are refunded once they expire.
      const refund = () =>
        void refundExpiredHolds(store.db).then(
          (n) => n > 0 && log.warn({ refunded: n }, 'refunded charges whose answers were never delivered'),
          () => {},
        );
      refund();
      const refunds = setInterval(refund, Math.min(30, config.credits.holdSeconds / 2) * 1000);
      refunds.unref();
      stops.push(() => clearInterval(refunds));
      if (mailer) {
        const outbox = startMailOutbox({
          db: store.db,
          mailer,
          box: checkout?.box,
          baseUrl,
          retryMs: config.mail.retryMs,
          logger: log,
        });
        kickMail = () => outbox.kick();
        stops.push(() => outbox.stop());
      }
      if (alerts && alertParts) startAlertJobs(alerts, alertParts);
    };

    /**
     * Alerts: the webhook delivery queue, and the event rules run for each period the holder takes, the first one
     * too, with the stored periods before it that no server recorded (published while none ran: periodsToRecord);
     * recording is idempotent.
     */
    const startAlertJobs = (service: AlertsService, parts: Pick<DeliveryOptions, 'box' | 'policy'>) => {
      const queue = startWebhookQueue({
        db: store.db,
        ...parts,
        retryMs: config.alerts.retryMs,
        maxAttempts: config.alerts.maxAttempts,
        timeoutMs: config.alerts.webhookTimeoutMs,
        onError: (err) => log.warn({ err }, 'webhook delivery pass failed'),
        onAttempt: ({ deliveryId, attempt, result, final }) => {
          if (!result.ok)
            log.info(
              { deliveryId, attempt, status: result.status, reason: result.error, final },
              'webhook not delivered',
            );
        },
      });
      stops.push(() => queue.stop());
      holder.onSwap((snapshot) => {
        void service.recordNewPeriods(snapshot.period.slug).then(
          (periods) => {
            const recorded = periods.filter((p) => p.events > 0);
            if (recorded.length === 0) return;
            for (const p of recorded) log.info(p, 'recorded alert events');
            queue.kick();
            if (recorded.some((p) => p.digests > 0)) kickMail();
          },
          (err) => log.warn({ err, period: snapshot.period.slug }, 'could not record alert events'),
        );
      }, 'alert events');
    };

    let closing: Promise<void> | undefined;
    const app: App = {
      config,
      log,
      store,
      holder,
      urls,
      services,
      redis,
      limiterRedis,
      probes,
      async open(phase = () => {}) {
        await ready;
        phase(store.hostsEmbedded ? 'open embedded database (rest of the wait)' : 'connect to database');
        await migrateToLatest(store.db);
        phase('migrate');
        watchPipelineMetrics(() => pipelineFigures(store.db));
        if (options.snapshot) {
          holder.provide(options.snapshot);
          startJobs();
          return;
        }
        const startPoller = () =>
          stops.push(
            startPeriodPoller({
              db: store.db,
              baseUrl,
              holder,
              intervalMs: config.periods.pollMs,
              onError: (err) => log.warn({ err }, 'could not check for a new period'),
              onSwap: (s) =>
                log.info({ period: s.period.slug, startups: s.startups.length }, 'serving a newly published period'),
            }),
          );
        // The demo generator is loaded only for an empty store (seedDemoIfEmpty checks again, under a lock).
        const empty = config.demo.enabled && (await countPeriods(store.db)) === 0;
        if (empty && early && firstDemo) {
          // The newest week is served at once, as the store will hold it; the weeks before it are generated in the
          // background (one organisation per event-loop turn), and their reads wait for them. Then the whole dataset
          // is stored, the stored period swapped in (its history read from the store), and the poller starts.
          const [seed, generated] = await Promise.all([
            import('./pipeline/demo/seed.js'),
            import('./snapshot/generated.js'),
          ]);
          let history: (source: PeriodSource) => void = () => {};
          holder.provide(
            generated.latestDemoSnapshot(early, firstDemo, baseUrl, new Promise((resolve) => (history = resolve))),
          );
          phase("serve the demo's newest week from memory");
          const newestOnly = () => generated.demoHistory({ entries: early.entries, periods: [early.latest] });
          const seeding = (async () => {
            const dataset = await seed.generateDemoInTurns(firstDemo, () => Boolean(closing));
            // A close meanwhile: the reads waiting for the earlier weeks get the newest week alone, nothing is stored.
            if (!dataset) return history(newestOnly());
            history(generated.demoHistory(dataset));
            const written = await seed.seedDemoIfEmpty(store.db, firstDemo, dataset);
            if (written > 0) log.info({ periods: written }, 'loaded the synthetic demo dataset');
            const stored = closing ? undefined : await loadSnapshot(store.db, baseUrl);
            if (stored) await holder.advance(stored, () => Boolean(closing));
          })()
            .catch((err) => {
              history(newestOnly());
              log.error({ err }, 'could not generate or store the demo dataset; serving its newest week from memory');
            })
            .finally(() => {
              if (!closing) startPoller();
            });
          // A close while the demo is being stored waits for its transaction to end before the store closes.
          stops.push(() => seeding);
          startJobs();
          return;
        }
        if (empty) {
          const { seedDemoIfEmpty } = await import('./pipeline/demo/seed.js');
          const written = await seedDemoIfEmpty(store.db, { seed: config.demo.seed });
          if (written > 0) log.info({ periods: written }, 'loaded the synthetic demo dataset');
          phase('generate and store demo data');
        }
        const first = await loadSnapshot(store.db, baseUrl);
        if (first) holder.provide(first);
        else log.warn('no period is published yet; data routes answer 503 until one is');
        phase('load snapshot');
        startPoller();
        startJobs();
      },
      warmUp(measured) {
        // An index still being built when the application closes loses its store: that is the close, not an error
        // (signal-mcp closes whenever its client goes away, however soon after the start).
        holder.warmUp((err) => {
          if (closing) log.debug({ err }, 'per-period index not built: the application closed');
          else log.error({ err }, 'could not build a per-period index');
        }, measured);
      },
      close() {
        closing ??= (async () => {
          for (const stop of stops.splice(0).reverse()) await stop();
          redis?.disconnect();
          limiterRedis?.disconnect();
          await store.close();
        })();
        return closing;
      },
    };
    return app;
  } catch (err) {
    redis?.disconnect();
    limiterRedis?.disconnect();
    await store.close().catch(() => {});
    throw err;
  }
}

/**
 * For the commands that need only the store (`keys`, the pipeline's commands): the configured database opened with
 * `poolSize` connections and migrated, handed to `work`, and closed after it, whatever it returns or throws.
 */
export async function withMigratedStore<T>(
  database: DatabaseConfig,
  poolSize: number,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openStore({ dataDir: database.dataDir, databaseUrl: database.url, poolSize });
  try {
    await migrateToLatest(store.db);
    return await work(store);
  } finally {
    await store.close();
  }
}
