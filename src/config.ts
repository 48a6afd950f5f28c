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
  trustProxy: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Load the synthetic demo dataset when the store holds no period yet. */
  demoData: boolean;
  demoSeed: string;
  /** How often a running server looks for a newly published period, in milliseconds. */
  periodPollMs: number;
  /** Content of the published documents (changelog, glossary, members, markets…); undefined: the package's content/. */
  documentsDir: string | undefined;
  /** GitHub API (the pipeline's collector and the Scout Score). The token is never logged. */
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
  // Agent surfaces (MCP, A2A, function calling)
  /** `signal-mcp` proxies this remote deployment instead of serving the embedded data. */
  signalBaseUrl: string | undefined;
  /** Credit-pack key `signal-mcp` presents for get_deep_signal. Never logged. */
  signalApiKey: string | undefined;
  /** Browser origins allowed to call /api/mcp/rpc besides BASE_URL's own (DNS-rebinding protection). */
  mcpAllowedOrigins: string[];
  /** Scout Score (issue 20): how long a user's star history is served from the database before it is revalidated. */
  scoutCacheTtlSeconds: number;
  /** Scout Score: pages of 100 stars read per user, oldest first (each page is one GitHub request). */
  scoutMaxStarPages: number;
  // Paid Deep Signal: card checkout (Stripe) and key delivery by e-mail (issue 18).
  /** Stripe secret API key; card checkout is on only when it, the price and the webhook secret are all set. */
  stripeSecretKey: string | undefined;
  /** The Stripe Price of the credit pack (100 credits, 19 EUR). */
  stripePriceId: string | undefined;
  /** Signing secret of the Stripe webhook endpoint (POST /api/webhooks/stripe). */
  stripeWebhookSecret: string | undefined;
  /** Stripe API origin; only tests and proxies change it. */
  stripeApiUrl: string;
  /** SMTP server keys are e-mailed through (smtp:// or smtps://, credentials inside); unset: no e-mail. */
  smtpUrl: string | undefined;
  /** Sender of those e-mails. */
  mailFrom: string;
  /** How often the mail outbox looks for due messages, and the first retry delay (doubling, at most 1 hour). */
  mailRetryMs: number;
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

/** Each variable: its schema and its default (as the string a user would have typed). */
const variables = {
  PORT: { schema: port, fallback: '3000' },
  HOST: { schema: z.string().trim().min(1, 'must not be empty'), fallback: '127.0.0.1' },
  BASE_URL: { schema: httpUrl, fallback: undefined },
  DATA_DIR: { schema: z.string().trim().min(1, 'must not be empty'), fallback: './.data' },
  DATABASE_URL: { schema: postgresUrl, fallback: undefined },
  REDIS_URL: { schema: redisUrl, fallback: undefined },
  TRUST_PROXY: { schema: onOff, fallback: 'off' },
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
  // Agent surfaces (MCP, A2A, function calling)
  SIGNAL_BASE_URL: { schema: httpUrl, fallback: undefined },
  SIGNAL_API_KEY: {
    schema: z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{1,512}$/, 'must be one key of printable characters without spaces'),
    fallback: undefined,
  },
  MCP_ALLOWED_ORIGINS: {
    schema: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every((o) => /^https?:\/\/[^/\s?#]+$/.test(o)), {
        message: 'must be a comma-separated list of origins such as https://app.example.com (no path)',
      }),
    fallback: '',
  },
  // Scout Score (issue 20)
  SCOUT_CACHE_TTL_SECONDS: { schema: intBetween(60, 30 * 86_400), fallback: '86400' },
  SCOUT_MAX_STAR_PAGES: { schema: intBetween(1, 100), fallback: '10' },
  // Paid Deep Signal: card checkout and key delivery (issue 18).
  STRIPE_SECRET_KEY: {
    schema: z
      .string()
      .trim()
      .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret key (sk_… or rk_…)'),
    fallback: undefined,
  },
  STRIPE_PRICE_ID: {
    schema: z
      .string()
      .trim()
      .regex(/^price_\w+$/, 'must be a Stripe Price id (price_…)'),
    fallback: undefined,
  },
  STRIPE_WEBHOOK_SECRET: {
    schema: z
      .string()
      .trim()
      .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)'),
    fallback: undefined,
  },
  STRIPE_API_URL: { schema: httpUrl, fallback: 'https://api.stripe.com' },
  SMTP_URL: {
    schema: z
      .string()
      .trim()
      .refine((v) => /^smtps?:\/\/\S+$/.test(v), { message: 'must be an smtp:// or smtps:// URL' }),
    fallback: undefined,
  },
  MAIL_FROM: {
    schema: z.string().trim().min(3, 'must be a sender address').max(320),
    fallback: 'Signal Service <no-reply@localhost>',
  },
  MAIL_RETRY_MS: { schema: intBetween(100, 3_600_000), fallback: '60000' },
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
    signalBaseUrl: read(env, 'SIGNAL_BASE_URL'),
    signalApiKey: read(env, 'SIGNAL_API_KEY'),
    mcpAllowedOrigins: read(env, 'MCP_ALLOWED_ORIGINS') ?? [],
    // Scout Score (issue 20)
    scoutCacheTtlSeconds: read(env, 'SCOUT_CACHE_TTL_SECONDS')!,
    scoutMaxStarPages: read(env, 'SCOUT_MAX_STAR_PAGES')!,
    stripeSecretKey: read(env, 'STRIPE_SECRET_KEY'),
    stripePriceId: read(env, 'STRIPE_PRICE_ID'),
    stripeWebhookSecret: read(env, 'STRIPE_WEBHOOK_SECRET'),
    stripeApiUrl: read(env, 'STRIPE_API_URL')!,
    smtpUrl: read(env, 'SMTP_URL'),
    mailFrom: read(env, 'MAIL_FROM')!,
    mailRetryMs: read(env, 'MAIL_RETRY_MS')!,
  };
}
