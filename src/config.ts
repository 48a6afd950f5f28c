import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * The whole configuration of the service, read once from the environment at start and passed down.
 * Nothing else in the code base reads `process.env`.
 */
export interface Config {
  port: number;
  host: string;
  /** Origin (no trailing slash) used for every canonical URL the service prints. */
  baseUrl: string;
  dataDir: string;
  /** Unset: an embedded PostgreSQL (PGlite) in `dataDir`. Set: a PostgreSQL server. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Which peers may set X-Forwarded-For / X-Request-Id: false, true (all), a hop count, or addresses/CIDRs/names. */
  trustProxy: TrustProxy;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Load the synthetic demo dataset when the store holds no period yet. */
  demoData: boolean;
  demoSeed: string;
  /** How often a running server looks for a newly published period, in milliseconds. */
  periodPollMs: number;
  /** Content of the published documents (changelog, glossary, members, markets…); undefined: the package's content/. */
  documentsDir: string | undefined;
  /** GitHub collector (`signal-service pipeline`). The token is read only by the collector and never logged. */
  githubToken: string | undefined;
  githubApiUrl: string;
  /** GitHub HTTP requests in flight at once, per process. */
  githubConcurrency: number;
  /** Organisations fetched in one GraphQL query. */
  githubOrgsPerQuery: number;
  /** Minimum pause between two GraphQL queries (GitHub asks integrators not to fire them in bursts). */
  githubQueryIntervalMs: number;
  /** Base delay of the backoff for 5xx answers and statistics still being computed (202). */
  githubRetryBaseMs: number;
  /** Pages of 100 commits read per repository before the collector falls back to GitHub's daily statistics. */
  githubMaxCommitPages: number;
  /** The watchlist file `pipeline run` reads when --watchlist is not given. */
  pipelineWatchlist: string;
  /** Batches of organisations one pipeline process collects at once. */
  pipelineConcurrency: number;
  // --- Operations (issue 23): rate limits, metrics, access log, database limits ---
  /** Rate limiting on or off (off only for benchmarks and private deployments). */
  rateLimit: boolean;
  /** Per route class: steady requests per minute and burst capacity. */
  rateLimits: Record<LimitedClass, RateLimitSpec>;
  /** Prefix of the rate-limit keys in Redis (several deployments can share one Redis). */
  rateLimitRedisPrefix: string;
  /** Separate port serving GET /metrics (Prometheus text); undefined: no metrics listener. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Bearer token that opens GET /metrics on the main port; undefined: not on the main port. */
  metricsToken: string | undefined;
  /** One log line per response (method, path, status, duration, request id). */
  accessLog: boolean;
  /** Connections one process holds to PostgreSQL. */
  databasePoolMax: number;
  /** PostgreSQL aborts a statement running longer than this (server side), and the client gives up too. */
  databaseStatementTimeoutMs: number;
  /** Waiting longer than this for a connection answers 503 instead. */
  databaseConnectTimeoutMs: number;
}

/** Fastify's trustProxy values: off, on, a hop count, or a list of addresses, CIDR ranges and named ranges. */
export type TrustProxy = boolean | number | string[];

/** Route classes a route declares with `config: { rateLimit }` ('unlimited' has no budget). */
export const RATE_LIMIT_CLASSES = ['free', 'signal', 'receipts', 'paid', 'unlimited'] as const;
export type RateLimitClass = (typeof RATE_LIMIT_CLASSES)[number];
export type LimitedClass = Exclude<RateLimitClass, 'unlimited'>;

export interface RateLimitSpec {
  /** Steady budget: requests per minute. */
  perMinute: number;
  /** Requests a client can send at once (the steady budget plus a reserve of burst − perMinute). */
  burst: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'].includes(v), {
    message: 'must be one of on, off, true, false, 1, 0, yes, no',
  })
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const port = z.coerce
  .number({ message: 'must be a number' })
  .int('must be an integer')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const postgresUrl = z
  .string()
  .trim()
  .refine((v) => /^postgres(ql)?:\/\/\S+$/.test(v), { message: 'must be a postgres:// or postgresql:// URL' });

const redisUrl = z
  .string()
  .trim()
  .refine((v) => /^rediss?:\/\/\S+$/.test(v), { message: 'must be a redis:// or rediss:// URL' });

const httpUrl = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.search === '' && u.hash === '';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http(s) URL without query or fragment' },
  )
  .transform((v) => v.replace(/\/+$/, ''));

function intBetween(min: number, max: number) {
  return z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`);
}

// --- Operations (issue 23) ---
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isCidrOrAddress(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY, in the forms operators know from Express and Fastify: off/on words, a hop count (trust that many
 * proxies in front of us), or a comma-separated list of addresses, CIDR ranges and loopback/linklocal/uniquelocal.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): TrustProxy => {
    const word = v.toLowerCase();
    // A bare number is a hop count (as in Express and Fastify), so `1` trusts the one proxy in front of us.
    if (['true', 'on', 'yes'].includes(word)) return true;
    if (['0', 'false', 'off', 'no'].includes(word)) return false;
    if (/^\d+$/.test(word)) {
      const hops = Number(word);
      if (hops > 0 && hops <= 32) return hops;
    }
    const entries = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.find((e) => !NAMED_PROXY_RANGES.includes(e.toLowerCase()) && !isCidrOrAddress(e));
    if (entries.length === 0 || bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be off, on, a hop count (1-32), or a comma-separated list of addresses, CIDR ranges and loopback, linklocal, uniquelocal${bad ? ` (not understood: ${JSON.stringify(bad)})` : ''}`,
      });
      return z.NEVER;
    }
    return entries.map((e) => (NAMED_PROXY_RANGES.includes(e.toLowerCase()) ? e.toLowerCase() : e));
  });

/** A rate limit as `PER_MINUTE/BURST`, e.g. `60/120`; the burst is at least the per-minute budget. */
const rateLimitSpec = z
  .string()
  .trim()
  .transform((v, ctx): RateLimitSpec => {
    const m = /^(\d{1,9})\s*\/\s*(\d{1,9})$/.exec(v);
    const perMinute = Number(m?.[1]);
    const burst = Number(m?.[2]);
    if (!m || perMinute < 1 || burst < perMinute) {
      ctx.addIssue({ code: 'custom', message: 'must be PER_MINUTE/BURST with 1 <= PER_MINUTE <= BURST, e.g. 60/120' });
      return z.NEVER;
    }
    return { perMinute, burst };
  });

/** Each variable: its schema and its default (as the string a user would have typed). */
const variables = {
  PORT: { schema: port, fallback: '3000' },
  HOST: { schema: z.string().trim().min(1, 'must not be empty'), fallback: '127.0.0.1' },
  BASE_URL: { schema: httpUrl, fallback: undefined },
  DATA_DIR: { schema: z.string().trim().min(1, 'must not be empty'), fallback: './.data' },
  DATABASE_URL: { schema: postgresUrl, fallback: undefined },
  REDIS_URL: { schema: redisUrl, fallback: undefined },
  TRUST_PROXY: { schema: trustProxy, fallback: 'off' },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }),
    fallback: 'info',
  },
  DEMO_DATA: { schema: onOff, fallback: 'on' },
  DEMO_SEED: { schema: z.string().trim().min(1, 'must not be empty').max(100), fallback: 'signal-service-demo' },
  DOCUMENTS_DIR: {
    schema: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .transform((v) => path.resolve(v)),
    fallback: undefined,
  },
  PERIOD_POLL_MS: {
    schema: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(100).max(3_600_000),
    fallback: '5000',
  },
  GITHUB_TOKEN: {
    schema: z
      .string()
      .trim()
      .regex(/^\S{1,255}$/, 'must be one token without spaces'),
    fallback: undefined,
  },
  GITHUB_API_URL: { schema: httpUrl, fallback: 'https://api.github.com' },
  GITHUB_CONCURRENCY: { schema: intBetween(1, 100), fallback: '8' },
  GITHUB_ORGS_PER_QUERY: { schema: intBetween(1, 50), fallback: '5' },
  GITHUB_QUERY_INTERVAL_MS: { schema: intBetween(0, 60_000), fallback: '1000' },
  GITHUB_RETRY_BASE_MS: { schema: intBetween(1, 60_000), fallback: '1000' },
  GITHUB_MAX_COMMIT_PAGES: { schema: intBetween(1, 1000), fallback: '30' },
  PIPELINE_WATCHLIST: { schema: z.string().trim().min(1, 'must not be empty'), fallback: './watchlist.yaml' },
  PIPELINE_CONCURRENCY: { schema: intBetween(1, 64), fallback: '4' },
  // Operations (issue 23)
  RATE_LIMIT: { schema: onOff, fallback: 'on' },
  RATE_LIMIT_FREE: { schema: rateLimitSpec, fallback: '60/120' },
  RATE_LIMIT_SIGNAL: { schema: rateLimitSpec, fallback: '30/60' },
  RATE_LIMIT_RECEIPTS: { schema: rateLimitSpec, fallback: '10/20' },
  RATE_LIMIT_PAID: { schema: rateLimitSpec, fallback: '120/240' },
  RATE_LIMIT_REDIS_PREFIX: {
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 letters, digits, or : _ . -'),
    fallback: 'sigsvc:rl',
  },
  METRICS_PORT: { schema: intBetween(1, 65535), fallback: undefined },
  METRICS_HOST: { schema: z.string().trim().min(1, 'must not be empty'), fallback: '127.0.0.1' },
  METRICS_TOKEN: {
    schema: z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16-256 printable characters without spaces'),
    fallback: undefined,
  },
  ACCESS_LOG: { schema: onOff, fallback: 'off' },
  DATABASE_POOL_MAX: { schema: intBetween(1, 200), fallback: '8' },
  DATABASE_STATEMENT_TIMEOUT_MS: { schema: intBetween(100, 3_600_000), fallback: '15000' },
  DATABASE_CONNECT_TIMEOUT_MS: { schema: intBetween(100, 120_000), fallback: '3000' },
} as const;

export type VariableName = keyof typeof variables;

function read<K extends VariableName>(
  env: NodeJS.ProcessEnv,
  name: K,
): z.output<(typeof variables)[K]['schema']> | undefined {
  const spec = variables[name];
  const raw = env[name] === undefined || env[name] === '' ? spec.fallback : env[name];
  if (raw === undefined) return undefined;
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(name, `(${JSON.stringify(raw)}) ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  }
  return parsed.data as z.output<(typeof variables)[K]['schema']>;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portValue = read(env, 'PORT')!;
  const host = read(env, 'HOST')!;
  const hostForUrl = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    port: portValue,
    host,
    baseUrl: read(env, 'BASE_URL') ?? `http://${hostForUrl}:${portValue}`,
    dataDir: path.resolve(read(env, 'DATA_DIR')!),
    databaseUrl: read(env, 'DATABASE_URL'),
    redisUrl: read(env, 'REDIS_URL'),
    trustProxy: read(env, 'TRUST_PROXY')!,
    logLevel: read(env, 'LOG_LEVEL')!,
    demoData: read(env, 'DEMO_DATA')!,
    demoSeed: read(env, 'DEMO_SEED')!,
    periodPollMs: read(env, 'PERIOD_POLL_MS')!,
    documentsDir: read(env, 'DOCUMENTS_DIR'),
    githubToken: read(env, 'GITHUB_TOKEN'),
    githubApiUrl: read(env, 'GITHUB_API_URL')!,
    githubConcurrency: read(env, 'GITHUB_CONCURRENCY')!,
    githubOrgsPerQuery: read(env, 'GITHUB_ORGS_PER_QUERY')!,
    githubQueryIntervalMs: read(env, 'GITHUB_QUERY_INTERVAL_MS')!,
    githubRetryBaseMs: read(env, 'GITHUB_RETRY_BASE_MS')!,
    githubMaxCommitPages: read(env, 'GITHUB_MAX_COMMIT_PAGES')!,
    pipelineWatchlist: path.resolve(read(env, 'PIPELINE_WATCHLIST')!),
    pipelineConcurrency: read(env, 'PIPELINE_CONCURRENCY')!,
    // Operations (issue 23)
    rateLimit: read(env, 'RATE_LIMIT')!,
    rateLimits: {
      free: read(env, 'RATE_LIMIT_FREE')!,
      signal: read(env, 'RATE_LIMIT_SIGNAL')!,
      receipts: read(env, 'RATE_LIMIT_RECEIPTS')!,
      paid: read(env, 'RATE_LIMIT_PAID')!,
    },
    rateLimitRedisPrefix: read(env, 'RATE_LIMIT_REDIS_PREFIX')!,
    metricsPort: read(env, 'METRICS_PORT'),
    metricsHost: read(env, 'METRICS_HOST')!,
    metricsToken: read(env, 'METRICS_TOKEN'),
    accessLog: read(env, 'ACCESS_LOG')!,
    databasePoolMax: read(env, 'DATABASE_POOL_MAX')!,
    databaseStatementTimeoutMs: read(env, 'DATABASE_STATEMENT_TIMEOUT_MS')!,
    databaseConnectTimeoutMs: read(env, 'DATABASE_CONNECT_TIMEOUT_MS')!,
  };
}
