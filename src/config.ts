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
  // Payments: x402 pay per call and Solana credit packs (issue 19).
  /** EVM address that receives x402 payments; undefined: the x402 route answers 503. */
  x402PayTo: string | undefined;
  x402Network: 'base' | 'base-sepolia';
  /** The x402 facilitator (its /verify and /settle), no trailing slash. */
  x402FacilitatorUrl: string;
  /** Extra headers sent to the facilitator (a mainnet facilitator may need auth); never logged. */
  x402FacilitatorHeaders: Record<string, string>;
  /** Wallet that receives Solana stablecoin payments; undefined: both Solana routes answer 503. */
  solanaPayTo: string | undefined;
  solanaCluster: 'devnet' | 'testnet' | 'mainnet-beta';
  /** JSON-RPC endpoint; defaults to the cluster's public endpoint. */
  solanaRpcUrl: string;
  /** Stablecoin mint; defaults to the cluster's USDC mint. */
  solanaMint: string;
  solanaCommitment: 'confirmed' | 'finalized';
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

/** A Solana address: 32 to 44 base58 characters. */
const base58Address = z
  .string()
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana address');

/** A JSON object of header names to string values, e.g. {"Authorization":"Bearer …"}. */
const headerObject = z
  .string()
  .trim()
  .transform((v, ctx) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of header names to string values' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/), z.string().max(8192), {
      message: 'must be a JSON object of header names to string values',
    }),
  );

/** The public JSON-RPC endpoint and the USDC mint of each Solana cluster (devnet's is Circle's test USDC). */
export const SOLANA_CLUSTERS = {
  devnet: { rpcUrl: 'https://api.devnet.solana.com', usdcMint: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' },
  testnet: { rpcUrl: 'https://api.testnet.solana.com', usdcMint: undefined },
  'mainnet-beta': {
    rpcUrl: 'https://api.mainnet-beta.solana.com',
    usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  },
} as const;

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
  // Payments: x402 pay per call and Solana credit packs (issue 19).
  X402_PAY_TO: {
    schema: z
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address (0x and 40 hex digits)'),
    fallback: undefined,
  },
  X402_NETWORK: {
    schema: z.enum(['base', 'base-sepolia'], { message: 'must be base or base-sepolia' }),
    fallback: 'base-sepolia',
  },
  X402_FACILITATOR_URL: { schema: httpUrl, fallback: 'https://x402.org/facilitator' },
  // Read through facilitatorHeaders(): a bad value is reported without echoing it (it may hold a secret).
  X402_FACILITATOR_HEADERS: { schema: z.string(), fallback: '{}' },
  SOLANA_PAY_TO: { schema: base58Address, fallback: undefined },
  SOLANA_CLUSTER: {
    schema: z.enum(['devnet', 'testnet', 'mainnet-beta'], { message: 'must be devnet, testnet or mainnet-beta' }),
    fallback: 'devnet',
  },
  SOLANA_RPC_URL: { schema: httpUrl, fallback: undefined },
  SOLANA_MINT: { schema: base58Address, fallback: undefined },
  SOLANA_COMMITMENT: {
    schema: z.enum(['confirmed', 'finalized'], { message: 'must be confirmed or finalized' }),
    fallback: 'confirmed',
  },
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
    ...paymentsConfig(env),
  };
}

function facilitatorHeaders(raw: string): Record<string, string> {
  const parsed = headerObject.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError('X402_FACILITATOR_HEADERS', 'must be a JSON object of header names to string values');
  }
  return parsed.data;
}

/** Payments: x402 pay per call and Solana credit packs (issue 19). */
function paymentsConfig(env: NodeJS.ProcessEnv) {
  const solanaCluster = read(env, 'SOLANA_CLUSTER')!;
  const clusterDefaults = SOLANA_CLUSTERS[solanaCluster];
  const solanaMint = read(env, 'SOLANA_MINT') ?? clusterDefaults.usdcMint;
  if (!solanaMint) throw new ConfigError('SOLANA_MINT', `must be set: ${solanaCluster} has no default USDC mint`);
  return {
    x402PayTo: read(env, 'X402_PAY_TO'),
    x402Network: read(env, 'X402_NETWORK')!,
    x402FacilitatorUrl: read(env, 'X402_FACILITATOR_URL')!,
    x402FacilitatorHeaders: facilitatorHeaders(read(env, 'X402_FACILITATOR_HEADERS')!),
    solanaPayTo: read(env, 'SOLANA_PAY_TO'),
    solanaCluster,
    solanaRpcUrl: read(env, 'SOLANA_RPC_URL') ?? clusterDefaults.rpcUrl,
    solanaMint,
    solanaCommitment: read(env, 'SOLANA_COMMITMENT')!,
  };
}
