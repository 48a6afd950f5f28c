import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** Fastify's trustProxy values: off, on, a hop count, or a list of addresses, CIDR ranges and named ranges. */
export type TrustProxy = boolean | number | string[];

/** Route classes a route declares with `config: { rateLimit }` ('unlimited' has no budget). */
export const RATE_LIMIT_CLASSES = ['free', 'signal', 'receipts', 'export', 'paid', 'unlimited'] as const;
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

const nonEmpty = z.string().trim().min(1, 'must not be empty');

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

const HEADERS_MESSAGE = 'must be a JSON object of header names to string values';
const headerRecord = z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/), z.string().max(8192));

/**
 * A JSON object of header names to string values, e.g. {"Authorization":"Bearer …"}. Every failure has the one
 * message (it may hold a secret, so neither the value nor a part of it is repeated).
 */
const headerObject = z
  .string()
  .trim()
  .transform((v, ctx) => {
    let json: unknown;
    try {
      json = JSON.parse(v) as unknown;
    } catch {
      json = undefined;
    }
    const parsed = headerRecord.safeParse(json);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: HEADERS_MESSAGE });
      return z.NEVER;
    }
    return parsed.data;
  });

/** The public JSON-RPC endpoint and the USDC mint of each Solana cluster (devnet's is Circle's test USDC). */
export const SOLANA_CLUSTERS = {
  devnet: { rpcUrl: 'https://api.devnet.solana.com', usdcMint: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' },
  testnet: { rpcUrl: 'https://api.testnet.solana.com', usdcMint: undefined },
  'mainnet-beta': {
    rpcUrl: 'https://api.mainnet-beta.solana.com',
    usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  },
} as const;
export type SolanaCluster = keyof typeof SOLANA_CLUSTERS;

/** The public JSON-RPC endpoints of the x402 networks (read-only use: the token contract's authorization state). */
export const X402_RPC_DEFAULTS = {
  base: 'https://mainnet.base.org',
  'base-sepolia': 'https://sepolia.base.org',
} as const;

// --- Operations ---
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

/**
 * The one declaration of the configuration. Each environment variable, once: the section and key it fills, the zod
 * schema that reads it from its string (validation and message), its default, and its row in the README's table
 * (`npm run docs:config`). The type of the configuration (`Config`), the loader and the table all derive from it.
 *
 * - `default`: a string is the value a user would have typed, read by the schema like one; `derived` computes the
 *   value from variables declared above when the variable is unset. Without a default an unset variable is
 *   `undefined`. An empty variable counts as unset.
 * - `shown`: the README's default column when it is not the string default in backticks (or "unset").
 * - `echo: false`: a bad value is reported without repeating it (it may hold a secret).
 *
 * The order is the README's, and the loader reads the variables in it.
 */
export const CONFIG_VARIABLES = {
  PORT: {
    section: 'server',
    key: 'port',
    schema: port,
    default: '3000',
    doc: 'TCP port to listen on (0 picks a free one).',
  },
  HOST: {
    section: 'server',
    key: 'host',
    schema: nonEmpty,
    default: '127.0.0.1',
    doc: 'Interface to bind; `0.0.0.0` to accept outside connections.',
  },
  BASE_URL: {
    section: 'server',
    key: 'baseUrl',
    schema: httpUrl,
    default: {
      derived: (value) => {
        const host = value('HOST') as string;
        const hostForUrl = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
        return `http://${hostForUrl}:${value('PORT') as number}`;
      },
    },
    shown: '`http://HOST:PORT`',
    doc: 'Public origin used in every canonical URL the service prints (citations, sector URLs, `Link` headers, OpenAPI `servers`). Set it behind a proxy, e.g. `https://signals.example.org`. `https` also turns on HSTS.',
  },
  OPERATOR_CONTACT: {
    section: 'server',
    key: 'operatorContact',
    schema: z
      .string()
      .trim()
      .max(200)
      .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) || /^https:\/\/\S+$/.test(v), {
        message: 'must be an e-mail address or an https URL',
      }),
    doc: 'How to reach this server’s operator for a credit-pack key without a card (an e-mail address or an https URL), shown on the credits page. Unset: no contact is shown.',
  },
  DATA_DIR: {
    section: 'database',
    key: 'dataDir',
    schema: nonEmpty.transform((v) => path.resolve(v)),
    default: './.data',
    doc: 'Where the embedded database lives (and its socket, see below).',
  },
  DATABASE_URL: {
    section: 'database',
    key: 'url',
    schema: postgresUrl,
    doc: 'Unset: embedded PGlite in `DATA_DIR`. Set (`postgres://…`): PostgreSQL.',
  },
  REDIS_URL: {
    section: 'redis',
    key: 'url',
    schema: redisUrl,
    doc: 'Redis (`redis://…`) for state shared between instances; `/readyz` checks it when set.',
  },
  REDIS_COMMAND_TIMEOUT_MS: {
    section: 'redis',
    key: 'commandTimeoutMs',
    schema: intBetween(10, 10_000),
    default: '250',
    doc: 'A rate-limit command Redis has not answered within this time fails; the limiter then decides from memory (a circuit breaker, checked every second) until Redis answers again.',
  },
  TRUST_PROXY: {
    section: 'server',
    key: 'trustProxy',
    schema: trustProxy,
    default: 'off',
    doc: "Which peers may set `X-Forwarded-For` (the client address) and `X-Request-Id`. `off`: none, the address is the socket's. `on`: every hop (only behind a proxy you control). A number: that many proxies in front of us (`1` = one load balancer). Or a comma-separated list of addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal` (e.g. `10.0.0.0/8, loopback`). Anything else stops the start.",
  },
  LOG_LEVEL: {
    section: 'server',
    key: 'logLevel',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }),
    default: 'info',
    doc: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. JSON logs on stderr; credentials are redacted.',
  },
  DEMO_DATA: {
    section: 'demo',
    key: 'enabled',
    schema: onOff,
    default: 'on',
    doc: 'Load the synthetic demo dataset when the store holds no period yet (`off` in production with real data).',
  },
  DEMO_SEED: {
    section: 'demo',
    key: 'seed',
    schema: nonEmpty.max(100),
    default: 'signal-service-demo',
    doc: 'Seed of the demo generator: the same seed gives the same dataset, byte for byte.',
  },
  PERIOD_POLL_MS: {
    section: 'periods',
    key: 'pollMs',
    schema: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(100).max(3_600_000),
    default: '5000',
    doc: 'How often a running server checks the store for a newly published period.',
  },
  DOCUMENTS_DIR: {
    section: 'documents',
    key: 'dir',
    schema: nonEmpty.transform((v) => path.resolve(v)),
    shown: "the package's `content/`",
    doc: "Directory the published documents' content is read from (changelog, glossary, members, affiliates, brand guide, paper, markets).",
  },
  GITHUB_TOKEN: {
    section: 'github',
    key: 'token',
    schema: z
      .string()
      .trim()
      .regex(/^\S{1,255}$/, 'must be one token without spaces'),
    shown: '(none)',
    doc: 'GitHub token for the collector; required by `pipeline run`, `worker` and `discover`. Optional for the Scout Score (without it GitHub allows 60 requests an hour). Never stored or logged.',
  },
  GITHUB_API_URL: {
    section: 'github',
    key: 'apiUrl',
    schema: httpUrl,
    default: 'https://api.github.com',
    doc: 'GitHub API root (GraphQL at `{root}/graphql`).',
  },
  GITHUB_CONCURRENCY: {
    section: 'github',
    key: 'concurrency',
    schema: intBetween(1, 100),
    default: '8',
    doc: 'GitHub requests in flight at once, per process.',
  },
  GITHUB_ORGS_PER_QUERY: {
    section: 'github',
    key: 'orgsPerQuery',
    schema: intBetween(1, 50),
    default: '5',
    doc: 'Organisations per GraphQL query (and per queue batch).',
  },
  GITHUB_QUERY_INTERVAL_MS: {
    section: 'github',
    key: 'queryIntervalMs',
    schema: intBetween(0, 60_000),
    default: '1000',
    doc: 'Minimum pause between GraphQL queries.',
  },
  GITHUB_RETRY_BASE_MS: {
    section: 'github',
    key: 'retryBaseMs',
    schema: intBetween(1, 60_000),
    default: '1000',
    doc: 'Backoff unit for 5xx answers, 202 statistics and retry passes.',
  },
  GITHUB_MAX_COMMIT_PAGES: {
    section: 'github',
    key: 'maxCommitPages',
    schema: intBetween(1, 1000),
    default: '30',
    doc: 'Pages of 100 commits read per repository before daily statistics take over.',
  },
  PIPELINE_WATCHLIST: {
    section: 'pipeline',
    key: 'watchlist',
    schema: nonEmpty.transform((v) => path.resolve(v)),
    default: './watchlist.yaml',
    doc: 'Watchlist file used when `--watchlist` is not given. Left unset and with no ./watchlist.yaml, `pipeline run` collects the curated data/watchlist.yaml.',
  },
  PIPELINE_SOURCE: {
    section: 'pipeline',
    key: 'source',
    schema: z.enum(['github', 'git'], { message: 'must be github or git' }),
    default: 'github',
    doc: 'Where `pipeline run` reads activity: `github` (the API, needs GITHUB_TOKEN) or `git` (local clones in PIPELINE_CLONES, no token; see docs/pipeline.md).',
  },
  PIPELINE_CLONES: {
    section: 'pipeline',
    key: 'clones',
    schema: nonEmpty.transform((v) => path.resolve(v)),
    default: './clones',
    doc: 'Directory of git clones the git source reads, as `<org>/<repo>` or `<org>/<repo>.git`.',
  },
  PIPELINE_CLONE_MISSING: {
    section: 'pipeline',
    key: 'cloneMissing',
    schema: onOff,
    default: 'off',
    doc: 'Git source: clone (`--filter=blob:none`, from github.com) the watchlist repositories that have no clone yet.',
  },
  PIPELINE_CONCURRENCY: {
    section: 'pipeline',
    key: 'concurrency',
    schema: intBetween(1, 64),
    default: '4',
    doc: 'Batches of organisations one pipeline process collects at once.',
  },
  SCOUT_CACHE_TTL_SECONDS: {
    section: 'scout',
    key: 'cacheTtlSeconds',
    schema: intBetween(60, 30 * 86_400),
    default: '86400',
    doc: "How long the Scout Score serves a user's star history from the database before revalidating it.",
  },
  SCOUT_MAX_STAR_PAGES: {
    section: 'scout',
    key: 'maxStarPages',
    schema: intBetween(1, 100),
    default: '10',
    doc: 'Pages of 100 stars the Scout Score reads per user, oldest first.',
  },
  X402_PAY_TO: {
    section: 'x402',
    key: 'payTo',
    schema: z
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address (0x and 40 hex digits)'),
    doc: 'EVM address that receives x402 payments. Unset: POST /api/agent/deep-signal/x402 answers 503.',
  },
  X402_NETWORK: {
    section: 'x402',
    key: 'network',
    schema: z.enum(['base', 'base-sepolia'], { message: 'must be base or base-sepolia' }),
    default: 'base-sepolia',
    doc: '`base-sepolia` (test USDC) or `base` (mainnet USDC).',
  },
  X402_FACILITATOR_URL: {
    section: 'x402',
    key: 'facilitatorUrl',
    schema: httpUrl,
    default: 'https://x402.org/facilitator',
    doc: 'x402 facilitator (its `/verify` and `/settle`); the default is the public test facilitator, which settles on Base Sepolia only.',
  },
  X402_FACILITATOR_HEADERS: {
    section: 'x402',
    key: 'facilitatorHeaders',
    schema: headerObject,
    default: '{}',
    echo: false,
    doc: 'JSON object of extra headers for the facilitator, e.g. `{"Authorization":"Bearer …"}` for a mainnet facilitator. Never logged or echoed.',
  },
  X402_RPC_URL: {
    section: 'x402',
    key: 'rpcUrl',
    schema: httpUrl,
    default: { derived: (value): string => X402_RPC_DEFAULTS[value('X402_NETWORK') as keyof typeof X402_RPC_DEFAULTS] },
    shown: "the network's public endpoint",
    doc: "Ethereum JSON-RPC endpoint of the x402 network, read to reconcile settlements whose outcome is unknown (the USDC contract's `authorizationState`). Use a dedicated provider in production.",
  },
  X402_RECONCILE_MS: {
    section: 'x402',
    key: 'reconcileMs',
    schema: intBetween(1_000, 3_600_000),
    default: '60000',
    doc: 'How often pending x402 settlements whose request was lost are reconciled against the token contract.',
  },
  SOLANA_PAY_TO: {
    section: 'solana',
    key: 'payTo',
    schema: base58Address,
    doc: 'Solana wallet that receives stablecoin payments. Unset: GET and POST /api/agent/deep-signal/solana answer 503.',
  },
  SOLANA_CLUSTER: {
    section: 'solana',
    key: 'cluster',
    schema: z.enum(['devnet', 'testnet', 'mainnet-beta'], { message: 'must be devnet, testnet or mainnet-beta' }),
    default: 'devnet',
    doc: '`devnet`, `testnet` or `mainnet-beta`.',
  },
  SOLANA_RPC_URL: {
    section: 'solana',
    key: 'rpcUrl',
    schema: httpUrl,
    default: { derived: (value): string => SOLANA_CLUSTERS[value('SOLANA_CLUSTER') as SolanaCluster].rpcUrl },
    shown: "the cluster's public endpoint",
    doc: 'JSON-RPC endpoint used to read transactions (use a dedicated provider in production).',
  },
  SOLANA_MINT: {
    section: 'solana',
    key: 'mint',
    schema: base58Address,
    default: {
      derived: (value): string => {
        const cluster = value('SOLANA_CLUSTER') as SolanaCluster;
        const mint = SOLANA_CLUSTERS[cluster].usdcMint;
        if (!mint) throw new ConfigError('SOLANA_MINT', `must be set: ${cluster} has no default USDC mint`);
        return mint;
      },
    },
    shown: "the cluster's USDC mint",
    doc: 'SPL token accepted (devnet `4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU`, mainnet `EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`); required on `testnet`.',
  },
  SOLANA_COMMITMENT: {
    section: 'solana',
    key: 'commitment',
    schema: z.enum(['confirmed', 'finalized'], { message: 'must be confirmed or finalized' }),
    default: 'confirmed',
    doc: 'Commitment a payment must reach before it is redeemed: `confirmed` or `finalized`.',
  },
  SIGNAL_BASE_URL: {
    section: 'agents',
    key: 'signalBaseUrl',
    schema: httpUrl,
    doc: '`signal-mcp` only: proxy this deployment (e.g. `https://signals.example.org`) instead of serving the local data.',
  },
  SIGNAL_API_KEY: {
    section: 'agents',
    key: 'signalApiKey',
    schema: z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{1,512}$/, 'must be one key of printable characters without spaces'),
    doc: '`signal-mcp` only: the credit-pack key it presents for `get_deep_signal`. Never logged.',
  },
  MCP_ALLOWED_ORIGINS: {
    section: 'agents',
    key: 'mcpAllowedOrigins',
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
    default: '',
    shown: '(none)',
    doc: "Comma-separated browser origins allowed to call `/api/mcp/rpc` besides `BASE_URL`'s own (requests with another `Origin` get 403; requests without one are not browsers and pass).",
  },
  RATE_LIMIT: {
    section: 'rateLimiting',
    key: 'enabled',
    schema: onOff,
    default: 'on',
    doc: 'Rate limits on or off (off: benchmarks, private deployments).',
  },
  RATE_LIMIT_FREE: {
    section: 'rateLimits',
    key: 'free',
    schema: rateLimitSpec,
    default: '60/120',
    doc: 'Free routes, per client address: `PER_MINUTE/BURST` (see [Operations](#operations-rate-limits-several-instances-metrics-and-hardening)).',
  },
  RATE_LIMIT_SIGNAL: {
    section: 'rateLimits',
    key: 'signal',
    schema: rateLimitSpec,
    default: '30/60',
    doc: '`GET /api/signal`, per client address.',
  },
  RATE_LIMIT_RECEIPTS: {
    section: 'rateLimits',
    key: 'receipts',
    schema: rateLimitSpec,
    default: '10/20',
    doc: '`GET /api/receipts/{username}`, per client address.',
  },
  RATE_LIMIT_EXPORT: {
    section: 'rateLimits',
    key: 'export',
    schema: rateLimitSpec,
    default: '4/8',
    doc: '`GET /api/dataset.jsonl` and `/api/v1/dataset.jsonl` (every stored period, megabytes), per client address.',
  },
  RATE_LIMIT_PAID: {
    section: 'rateLimits',
    key: 'paid',
    schema: rateLimitSpec,
    default: '120/240',
    doc: 'Paid routes, per valid credit-pack key (per address when a call has no key, or one that is unknown or revoked).',
  },
  RATE_LIMIT_REDIS_PREFIX: {
    section: 'rateLimiting',
    key: 'redisPrefix',
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 letters, digits, or : _ . -'),
    default: 'sigsvc:rl',
    doc: 'Prefix of the rate-limit counters in Redis.',
  },
  METRICS_PORT: {
    section: 'metrics',
    key: 'port',
    schema: intBetween(1, 65535),
    doc: 'Serve `GET /metrics` (Prometheus text) on this separate port; unset: no metrics listener.',
  },
  METRICS_HOST: {
    section: 'metrics',
    key: 'host',
    schema: nonEmpty,
    default: '127.0.0.1',
    doc: 'Interface of the metrics listener.',
  },
  METRICS_TOKEN: {
    section: 'metrics',
    key: 'token',
    schema: z
      .string()
      .trim()
      // A Bearer token as RFC 6750 writes it (token68), which is all the Authorization rule accepts.
      .regex(
        /^(?=.{16,256}$)[A-Za-z0-9\-._~+/]+=*$/,
        'must be 16-256 characters of letters, digits and - . _ ~ + / (then optional = padding)',
      ),
    doc: '16–256 characters (letters, digits, `-._~+/`, optional trailing `=`): also serve `GET /metrics` on the main port to `Authorization: Bearer <token>`. Unset: no `/metrics` there.',
  },
  ACCESS_LOG: {
    section: 'server',
    key: 'accessLog',
    schema: onOff,
    default: 'off',
    doc: 'One JSON log line per response (method, path with the query values replaced by `-`, status, ms, client address, request id).',
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    section: 'server',
    key: 'headersTimeoutMs',
    schema: intBetween(100, 600_000),
    default: '10000',
    doc: "Longest time a client may take to send a request's headers; then the connection is closed (408).",
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    section: 'server',
    key: 'requestTimeoutMs',
    schema: intBetween(100, 3_600_000),
    default: '30000',
    doc: 'Longest time a client may take to send a whole request, headers and body (at least `HTTP_HEADERS_TIMEOUT_MS`); then 408 and the connection is closed.',
  },
  HTTP_IDLE_TIMEOUT_MS: {
    section: 'server',
    key: 'idleTimeoutMs',
    schema: intBetween(100, 3_600_000),
    default: '30000',
    doc: 'A connection on which nothing is sent or received for this long is closed (a slow reader of a long answer included).',
  },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: {
    section: 'server',
    key: 'maxConnectionsPerAddress',
    schema: intBetween(1, 100_000),
    default: '128',
    doc: 'Open connections one client address may hold; a further one is answered 429 and closed. Peers `TRUST_PROXY` trusts are not capped (they carry many clients).',
  },
  DATABASE_POOL_MAX: {
    section: 'database',
    key: 'poolMax',
    schema: intBetween(1, 200),
    default: '8',
    doc: 'PostgreSQL connections per process (the serving process keeps those it opened while idle).',
  },
  DATABASE_STATEMENT_TIMEOUT_MS: {
    section: 'database',
    key: 'statementTimeoutMs',
    schema: intBetween(100, 3_600_000),
    default: '15000',
    doc: 'PostgreSQL cancels a statement running longer (the client gives up 1 s later; the route answers 503).',
  },
  DATABASE_CONNECT_TIMEOUT_MS: {
    section: 'database',
    key: 'connectTimeoutMs',
    schema: intBetween(100, 120_000),
    default: '3000',
    doc: 'Longest wait for a database connection before the route answers 503.',
  },
  CREDIT_HOLD_SECONDS: {
    section: 'credits',
    key: 'holdSeconds',
    schema: intBetween(2, 3_600),
    default: '60',
    doc: 'A charge made without an Idempotency-Key is held until its answer is handed to the connection; one not confirmed within this many seconds (the instance died) is refunded by a background job.',
  },
  DATABASE_HEALTH_TIMEOUT_MS: {
    section: 'database',
    key: 'healthTimeoutMs',
    schema: intBetween(0, 60_000),
    default: '1000',
    doc: 'PostgreSQL only: a watchdog checks the database every half of this; when two checks in a row are not answered within it, queries fail at once (paid calls 503 with Retry-After) until it answers again. 0: off.',
  },
  STRIPE_SECRET_KEY: {
    section: 'stripe',
    key: 'secretKey',
    schema: z
      .string()
      .trim()
      .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret key (sk_… or rk_…)'),
    doc: 'Stripe secret key (`sk_…`/`rk_…`) for card checkout of the Deep Signal credit pack; checkout is on only when it, `STRIPE_PRICE_ID` and `STRIPE_WEBHOOK_SECRET` are all set (see [Paid Deep Signal and credits](#paid-deep-signal-and-credits)).',
  },
  STRIPE_PRICE_ID: {
    section: 'stripe',
    key: 'priceId',
    schema: z
      .string()
      .trim()
      .regex(/^price_\w+$/, 'must be a Stripe Price id (price_…)'),
    doc: 'The Stripe Price of the credit pack (`price_…`); needed for card checkout.',
  },
  STRIPE_WEBHOOK_SECRET: {
    section: 'stripe',
    key: 'webhookSecret',
    schema: z
      .string()
      .trim()
      .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)'),
    doc: 'Signing secret of the Stripe webhook endpoint (`whsec_…`); needed for card checkout.',
  },
  STRIPE_API_URL: {
    section: 'stripe',
    key: 'apiUrl',
    schema: httpUrl,
    default: 'https://api.stripe.com',
    doc: 'Stripe API origin (tests point it at a local server).',
  },
  SMTP_URL: {
    section: 'mail',
    key: 'smtpUrl',
    schema: z
      .string()
      .trim()
      .refine((v) => /^smtps?:\/\/\S+$/.test(v), { message: 'must be an smtp:// or smtps:// URL' }),
    doc: 'SMTP server (`smtp://`/`smtps://`) that e-mails credit-pack keys; unset: no e-mail.',
  },
  MAIL_FROM: {
    section: 'mail',
    key: 'from',
    schema: z.string().trim().min(3, 'must be a sender address').max(320),
    default: 'Signal Service <no-reply@localhost>',
    doc: 'Sender of those e-mails.',
  },
  MAIL_RETRY_MS: {
    section: 'mail',
    key: 'retryMs',
    schema: intBetween(100, 3_600_000),
    default: '60000',
    doc: 'Mail outbox poll interval and first retry delay (doubling, at most 1 hour).',
  },
  ALERTS_SECRET: {
    section: 'alerts',
    key: 'secret',
    schema: z.string().trim().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)'),
    echo: false,
    doc: 'Secret that encrypts webhook signing secrets and signs alert feed and unsubscribe links (at least 32 characters; the same on every instance). Unset: with the embedded database one is generated into `DATA_DIR/alerts.secret`; with `DATABASE_URL`, alerts are off ([docs/alerts.md](docs/alerts.md)).',
  },
  ALERTS_ALLOW_PRIVATE_WEBHOOKS: {
    section: 'alerts',
    key: 'allowPrivateWebhooks',
    schema: onOff,
    default: 'off',
    doc: 'Allow webhook URLs that resolve to private, loopback or link-local addresses (off: refused at creation and at every delivery).',
  },
  ALERTS_RETRY_MS: {
    section: 'alerts',
    key: 'retryMs',
    schema: intBetween(100, 3_600_000),
    default: '30000',
    doc: 'First retry delay of a failed webhook delivery (doubling, at most 1 hour); also how often the queue is polled (at most every minute).',
  },
  ALERTS_MAX_ATTEMPTS: {
    section: 'alerts',
    key: 'maxAttempts',
    schema: intBetween(1, 1000),
    default: '30',
    doc: 'Attempts of a webhook delivery before it is marked failed (30 with the default delay: about a day).',
  },
  ALERTS_WEBHOOK_TIMEOUT_MS: {
    section: 'alerts',
    key: 'webhookTimeoutMs',
    schema: intBetween(100, 120_000),
    default: '10000',
    doc: 'Longest wait for a webhook receiver to answer an attempt.',
  },
} as const satisfies Record<string, VariableSpec>;

/** How a variable is declared (see CONFIG_VARIABLES). */
export interface VariableSpec {
  readonly section: string;
  readonly key: string;
  readonly schema: z.ZodType;
  /** The raw default, or a value derived from the variables declared before this one. */
  readonly default?: string | { readonly derived: (value: (name: string) => unknown) => unknown };
  /** The README's default column when it is not the raw default. */
  readonly shown?: string;
  /** false: a bad value is reported without repeating it. */
  readonly echo?: false;
  /** The README's one-line meaning of the variable. */
  readonly doc: string;
}

type Variables = typeof CONFIG_VARIABLES;
export type VariableName = keyof Variables;
type ValueOf<N extends VariableName> = Variables[N] extends { readonly default: unknown }
  ? z.output<Variables[N]['schema']>
  : z.output<Variables[N]['schema']> | undefined;
export type SectionName = Variables[VariableName]['section'];
/** Compile-time check: a derived default has the type its schema reads (else this names the variable). */
type DerivedMismatch = {
  [N in VariableName]: Variables[N] extends { readonly default: { readonly derived: (...args: never[]) => infer R } }
    ? R extends z.output<Variables[N]['schema']>
      ? never
      : N
    : never;
}[VariableName];
const derivedDefaultsMatch: [DerivedMismatch] extends [never] ? true : DerivedMismatch = true;
void derivedDefaultsMatch;
type SectionOf<S extends SectionName> = {
  [N in VariableName as Variables[N]['section'] extends S ? Variables[N]['key'] : never]: ValueOf<N>;
};

/**
 * The whole configuration of the service, read once from the environment at start, one object per section. Each
 * module is given the sections it uses, not the whole of it. Nothing else in the code base reads `process.env`.
 */
export type Config = { [S in SectionName]: SectionOf<S> };

export type ServerConfig = Config['server'];
export type DatabaseConfig = Config['database'];
export type GitHubConfig = Config['github'];
export type ScoutConfig = Config['scout'];
export type X402Config = Config['x402'];
export type RateLimitingConfig = Config['rateLimiting'];
export type RateLimitsConfig = Config['rateLimits'];
export type MetricsConfig = Config['metrics'];
export type StripeConfig = Config['stripe'];
export type MailConfig = Config['mail'];
export type AlertsConfig = Config['alerts'];

/** Reads one variable: the environment's value, else its default; a bad value throws ConfigError naming it. */
function readVariable(
  env: NodeJS.ProcessEnv,
  name: string,
  spec: VariableSpec,
  value: (name: string) => unknown,
): unknown {
  const given = env[name];
  const raw =
    given === undefined || given === '' ? (typeof spec.default === 'string' ? spec.default : undefined) : given;
  if (raw === undefined) return typeof spec.default === 'object' ? spec.default.derived(value) : undefined;
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? 'is invalid';
    throw new ConfigError(name, spec.echo === false ? reason : `(${JSON.stringify(raw)}) ${reason}`);
  }
  return parsed.data;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const values = new Map<string, unknown>();
  const config: Record<string, Record<string, unknown>> = {};
  for (const [name, spec] of Object.entries(CONFIG_VARIABLES) as [VariableName, VariableSpec][]) {
    const v = readVariable(env, name, spec, (other) => {
      if (!values.has(other)) throw new Error(`the default of ${name} reads ${other}, which is declared after it`);
      return values.get(other);
    });
    values.set(name, v);
    (config[spec.section] ??= {})[spec.key] = v;
  }
  return config as Config;
}
