import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, in one registry for the whole process. Any part of the service counts what it
 * does by calling the functions below; they cost a counter increment and never throw, so calling them is safe on any
 * path. The registry is exposed on GET /metrics (a separate port or a bearer token: see docs/operations.md).
 *
 * Counters accumulate over the life of the process: several servers started in one process (tests) share them, so
 * tests compare before and after.
 */
export const metricsRegistry = new Registry();
metricsRegistry.setDefaultLabels({ service: 'signal-service' });

let processMetrics = false;
/**
 * Starts prom-client's process metrics (CPU, memory, event-loop delay, GC) in the registry, once. Called only where
 * the metrics are served: they sample the event loop every 10 ms and observe every garbage collection, about 1% of a
 * core on an idle process, which a service that does not publish them should not pay.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP responses sent, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request arriving to the response being sent, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const rateLimited = new Counter({
  name: 'http_rate_limited_total',
  help: 'Requests refused with 429, by rate-limit class.',
  labelNames: ['class'] as const,
  registers: [metricsRegistry],
});

const rateLimitFallbacks = new Counter({
  name: 'rate_limit_fallback_total',
  help: 'Rate-limit decisions taken from local memory because Redis did not answer.',
  registers: [metricsRegistry],
});

const connectionsRefused = new Counter({
  name: 'http_connections_refused_total',
  help: 'Connections answered 429 and closed because their address held HTTP_MAX_CONNECTIONS_PER_ADDRESS already.',
  registers: [metricsRegistry],
});

const creditsCharged = new Counter({
  name: 'credits_charged_total',
  help: 'Credits consumed by paid calls.',
  registers: [metricsRegistry],
});

const payments = new Counter({
  name: 'payments_total',
  help: 'Payments by method (card, x402, solana…) and outcome (settled, refused).',
  labelNames: ['method', 'outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * The pipeline runs in CLI and worker processes, not in the server: its figures are read from the database (the
 * pipeline_runs table, shared by every process and instance) when /metrics is scraped, through the reader that
 * watchPipelineMetrics installs. At most one query per PIPELINE_METRICS_TTL_MS; if the database does not answer,
 * the last values are kept.
 */
export interface PipelineFigures {
  runsByStatus: Record<string, number>;
  /** GitHub API requests the runs spent, and how many of them were answered 304 Not Modified. */
  githubRequests: number;
  githubNotModified: number;
}
let readPipelineFigures: (() => Promise<PipelineFigures>) | undefined;
let pipelineFigures: PipelineFigures | undefined;
let pipelineFiguresAt = 0;
const PIPELINE_METRICS_TTL_MS = 5_000;
const PIPELINE_STATUSES = ['collecting', 'complete', 'published', 'incomplete'] as const;

async function refreshPipelineFigures(): Promise<PipelineFigures | undefined> {
  if (readPipelineFigures && Date.now() - pipelineFiguresAt >= PIPELINE_METRICS_TTL_MS) {
    pipelineFiguresAt = Date.now();
    pipelineFigures = await readPipelineFigures().catch(() => pipelineFigures);
  }
  return pipelineFigures;
}

new Gauge({
  name: 'pipeline_runs',
  help: 'Pipeline runs recorded in the database, by status (collecting, complete = dry run done, published, incomplete).',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
  async collect() {
    const figures = await refreshPipelineFigures();
    if (!figures) return;
    for (const status of new Set([...PIPELINE_STATUSES, ...Object.keys(figures.runsByStatus)])) {
      this.labels(status).set(figures.runsByStatus[status] ?? 0);
    }
  },
});

new Counter({
  name: 'github_requests_total',
  help: 'GitHub API requests spent by all pipeline runs (result: sent = every request, not_modified = of which answered 304).',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
  async collect() {
    const figures = await refreshPipelineFigures();
    if (!figures) return;
    // A total read from the database: set by resetting and adding (prom-client counters have no set).
    this.reset();
    this.labels('sent').inc(figures.githubRequests);
    this.labels('not_modified').inc(figures.githubNotModified);
  },
});

/** Installs the reader of the pipeline's figures (the service calls it with its database once the store is open). */
export function watchPipelineMetrics(read: () => Promise<PipelineFigures>): void {
  readPipelineFigures = read;
  pipelineFiguresAt = 0;
}

const databaseUnavailable = new Counter({
  name: 'database_unavailable_total',
  help: 'Requests answered 503 because PostgreSQL did not answer.',
  registers: [metricsRegistry],
});

let snapshotPublishedAt: Date | undefined;
const snapshotPeriod = new Gauge({
  name: 'snapshot_period_info',
  help: 'The period being served (value 1, the slug as a label).',
  labelNames: ['period'] as const,
  registers: [metricsRegistry],
});
new Gauge({
  name: 'snapshot_age_seconds',
  help: 'Seconds since the period being served was published.',
  registers: [metricsRegistry],
  collect() {
    if (snapshotPublishedAt) this.set((Date.now() - snapshotPublishedAt.getTime()) / 1000);
  },
});

/**
 * A recorder bound to one route: resolves the labelled series once per status code, so a response costs two
 * increments and no label hashing. The server builds one per route at registration.
 */
export function httpRecorder(method: string, route: string): (status: number, seconds: number) => void {
  const series = new Map<number, { count: Counter.Internal; duration: Histogram.Internal<string> }>();
  return (status, seconds) => {
    let s = series.get(status);
    if (!s) {
      s = {
        count: httpRequests.labels(method, route, String(status)),
        duration: httpDuration.labels(method, route, String(status)),
      };
      series.set(status, s);
    }
    s.count.inc();
    s.duration.observe(seconds);
  };
}

/** A request refused with 429. */
export function countRateLimited(rateLimitClass: string): void {
  rateLimited.labels(rateLimitClass).inc();
}

/** A rate-limit decision taken locally because Redis did not answer. */
export function countRateLimitFallback(): void {
  rateLimitFallbacks.inc();
}

export function countConnectionRefused(): void {
  connectionsRefused.inc();
}

/** Credits consumed by a paid call (1 per matched Deep Signal call). */
export function countCreditsCharged(credits = 1): void {
  if (credits > 0) creditsCharged.inc(credits);
}

/**
 * A payment settled (credited or paid for a call) or refused (invalid, replayed, below price…); for x402 also a paid
 * answer handed out late (`redelivered`), and what the reconciler found of an abandoned settlement (`reconciled-paid`:
 * the transfer happened, its answer waits for a retry; `reconciled-expired`: it never happened and no longer can).
 */
export function countPayment(
  method: string,
  outcome: 'settled' | 'refused' | 'redelivered' | 'reconciled-paid' | 'reconciled-expired',
): void {
  payments.labels(method, outcome).inc();
}

/** A request answered 503 because the database did not answer. */
export function countDatabaseUnavailable(): void {
  databaseUnavailable.inc();
}

/** The period now being served (called at start and on every swap). */
export function setSnapshotPeriod(slug: string, publishedAt: Date): void {
  snapshotPeriod.reset();
  snapshotPeriod.labels(slug).set(1);
  snapshotPublishedAt = publishedAt;
}

/** The registry as Prometheus text, and its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
