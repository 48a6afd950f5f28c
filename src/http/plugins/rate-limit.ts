import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import {
  RATE_LIMIT_CLASSES,
  type LimitedClass,
  type RateLimitClass,
  type RateLimitingConfig,
  type RateLimitsConfig,
} from '../../config.js';
import { countRateLimitFallback, countRateLimited } from '../../metrics.js';
import { errorResponses } from '../openapi.js';
import { bearerToken } from '../../payments/authenticate.js';
import { HttpProblem, statusTitle } from '../problem.js';

/**
 * Rate limits per route class (the seam every route uses): a route declares
 * `config: { rateLimit: 'free' | 'signal' | 'receipts' | 'export' | 'paid' | 'unlimited' }` in its options. Without it, a
 * route is 'free', except static surfaces (GET of a fixed path ending in .json, .jsonl, .txt or .xml and taking no
 * query), CORS preflight and
 * the health and metrics probes, which are 'unlimited'. The class is read once, when the route is registered; an
 * unlimited route gets no hook at all, a limited one a single onRequest hook.
 *
 * Each class is a budget per client (per client address; 'paid' per valid credit-pack key, the SHA-256 of the
 * Bearer token, or per address when there is none or it opens nothing: see paidKey) shared by every route of that
 * class. A budget is `perMinute` requests
 * in each fixed minute plus a reserve of `burst − perMinute` that refills every BURST_WINDOW_SECONDS: a client can
 * send `burst` requests at once, and over a long run at most perMinute + (burst − perMinute) / 10 a minute.
 * (rate-limiter-flexible's steady-plus-burst composition; the library has no token bucket.)
 *
 * Counters live in memory, or in Redis when REDIS_URL is set so that every instance draws on one budget. When Redis
 * does not answer, the decision is taken from local memory (logged, counted in metrics), never a 5xx; a breaker
 * (RedisBreaker) keeps it there without asking Redis until Redis answers again.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RateLimitClass;
  }
}

/** Reserve refill window, seconds. */
export const BURST_WINDOW_SECONDS = 600;
const STATIC_SURFACE = /\.(json|jsonl|txt|xml)$/;
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The class of a route: what it declares, else the defaults above. */
export function routeClass(route: Pick<RouteOptions, 'method' | 'url' | 'config' | 'schema'>): RateLimitClass {
  const declared = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  if (declared !== undefined) {
    if (!RATE_LIMIT_CLASSES.includes(declared as RateLimitClass)) {
      throw new Error(
        `route ${String(route.method)} ${route.url}: config.rateLimit must be one of ${RATE_LIMIT_CLASSES.join(', ')}`,
      );
    }
    return declared as RateLimitClass;
  }
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.every((m) => m === 'OPTIONS')) return 'unlimited';
  const url = route.url ?? '';
  if (OPERATIONS_PATHS.has(url)) return 'unlimited';
  // A static surface: a document at a fixed URL (no path parameter, no query), cached at the edge.
  const dynamic = url.includes(':') || url.includes('*') || Boolean(route.schema?.querystring);
  if (methods.every((m) => m === 'GET' || m === 'HEAD') && STATIC_SURFACE.test(url) && !dynamic) return 'unlimited';
  return 'free';
}

export interface Decision {
  allowed: boolean;
  /** Value of the RateLimit header (draft-ietf-httpapi-ratelimit-headers). */
  state: string;
  /** Whole seconds before a retry can succeed (refused requests). */
  retryAfter: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** One class's budget: a steady limiter and a reserve limiter, in memory or in Redis. */
export class ClassBudget {
  readonly policy: string;
  private readonly steadyName: string;
  private readonly reserveName: string;

  constructor(
    readonly name: LimitedClass,
    private readonly steady: Consumer,
    private readonly reserve: Consumer | undefined,
    perMinute: number,
    burst: number,
  ) {
    this.steadyName = `"${name}"`;
    this.reserveName = `"${name}-burst"`;
    this.policy =
      `${this.steadyName};q=${perMinute};w=60` +
      (reserve ? `, ${this.reserveName};q=${burst - perMinute};w=${BURST_WINDOW_SECONDS}` : '');
  }

  decide(key: string): Promise<Decision> {
    return this.steady.consume(key).then(
      (res) => ({
        allowed: true,
        state: `${this.steadyName};r=${res.remainingPoints};t=${seconds(res.msBeforeNext)}`,
        retryAfter: 0,
      }),
      (steadyRefusal: unknown) => {
        if (!(steadyRefusal instanceof RateLimiterRes)) throw steadyRefusal;
        if (!this.reserve) return this.refused(steadyRefusal.msBeforeNext, this.steadyName);
        return this.reserve.consume(key).then(
          (res) => ({
            allowed: true,
            state: `${this.reserveName};r=${res.remainingPoints};t=${seconds(res.msBeforeNext)}`,
            retryAfter: 0,
          }),
          (reserveRefusal: unknown) => {
            if (!(reserveRefusal instanceof RateLimiterRes)) throw reserveRefusal;
            // The steady budget comes back first (within the minute).
            return this.refused(Math.min(steadyRefusal.msBeforeNext, reserveRefusal.msBeforeNext), this.reserveName);
          },
        );
      },
    );
  }

  private refused(ms: number, policy: string): Decision {
    const retryAfter = seconds(ms);
    return { allowed: false, state: `${policy};r=0;t=${retryAfter}`, retryAfter };
  }
}

/** The memory limiter used when Redis does not answer: counts and logs (at most once a minute) that it was used. */
class FallbackMemoryLimiter extends RateLimiterMemory {
  constructor(
    options: IRateLimiterOptions,
    private readonly onUse: () => void,
  ) {
    super(options);
  }
  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.onUse();
    return super.consume(key, points, options);
  }
}

/** What ClassBudget needs of a limiter: rate-limiter-flexible's consume. */
interface Consumer {
  consume(key: string): Promise<{ remainingPoints: number; msBeforeNext: number }>;
}

/**
 * A shared (Redis) limiter that takes its points in small reservations: one round trip reserves `chunk` points of
 * the shared window, and the next requests of that key are decided locally from the reservation until it is spent
 * or the window ends. Requests that arrive while a reservation is on its way wait for it instead of sending their
 * own (one round trip per key at a time, however many requests queue); with large budgets (chunks of
 * PREFETCH_FROM_CHUNK points or more) the next chunk is reserved while half of the current one is left, so busy
 * clients rarely wait at all. The shared budget is never exceeded; an instance may hold up to `chunk − 1` points
 * (`2·chunk − 1` with prefetching) another instance could have used (chunk is a tenth of the budget, at most 100:
 * 6 of 60, 3 of 30, 1 of 10, i.e. exact). When a reservation is refused it is given back and, until the window
 * ends, points are taken one at a time, so the budget is spent to the end.
 */
export class ReservingLimiter implements Consumer {
  private readonly held = new Map<string, Held>();
  private readonly pending = new Set<string>();
  /** Requests waiting for a reservation of their key, in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly inner: RateLimiterAbstract,
    readonly chunk: number,
  ) {
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, h] of this.held) if (h.expiresAt <= now) this.held.delete(key);
    }, 60_000);
    sweep.unref();
  }

  consume(key: string): Promise<Granted> {
    if (this.chunk <= 1) return this.inner.consume(key);
    const now = Date.now();
    const h = this.held.get(key);
    if (h && h.expiresAt > now && !this.waiting.has(key)) {
      if (h.left > 0) return Promise.resolve(this.take(key, h, now));
      // The window's budget ran short of a whole reservation: one point at a time until it ends.
      if (h.single) return this.inner.consume(key);
    }
    return new Promise<Granted>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.pending.has(key)) this.reserve(key);
    });
  }

  /** Hands out one held point; large budgets reserve the next chunk while half of this one is left. */
  private take(key: string, h: Held, now: number): Granted {
    h.left--;
    if (this.chunk >= PREFETCH_FROM_CHUNK && !h.single && h.left * 2 < this.chunk && !this.pending.has(key)) {
      this.reserve(key);
    }
    return { remainingPoints: h.shared + h.left, msBeforeNext: h.expiresAt - now };
  }

  /** Takes `chunk` points of the shared window (one round trip), adds them to what is held, serves the waiters. */
  private reserve(key: string): void {
    const now = Date.now();
    this.pending.add(key);
    this.inner
      .consume(key, this.chunk)
      .then(
        (res) => {
          const h = this.held.get(key);
          const expiresAt = now + res.msBeforeNext;
          if (h && h.expiresAt > Date.now() && !h.single) {
            h.left += this.chunk;
            h.shared = res.remainingPoints;
            h.expiresAt = expiresAt;
          } else {
            this.held.set(key, { left: this.chunk, expiresAt, shared: res.remainingPoints, single: false });
          }
        },
        async (refusal: unknown) => {
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          await this.inner.reward(key, this.chunk);
          const h = this.held.get(key);
          if (h && h.expiresAt > Date.now()) h.single = true;
          else this.held.set(key, { left: 0, expiresAt: now + refusal.msBeforeNext, shared: 0, single: true });
        },
      )
      .then(
        () => {
          this.pending.delete(key);
          this.serveWaiting(key);
        },
        (error: unknown) => {
          // The shared store failed outright: every waiting request gets the error (the hook lets them through).
          this.pending.delete(key);
          const queue = this.waiting.get(key) ?? [];
          this.waiting.delete(key);
          for (const w of queue) w.reject(error);
        },
      );
  }

  private serveWaiting(key: string): void {
    const queue = this.waiting.get(key);
    if (!queue) return;
    const h = this.held.get(key)!;
    const now = Date.now();
    const served = Math.min(h.left, queue.length);
    for (let i = 0; i < served; i++) queue[i]!.resolve(this.take(key, h, now));
    if (served === queue.length) {
      this.waiting.delete(key);
      return;
    }
    const rest = queue.slice(served);
    if (h.single) {
      // Not a whole reservation left in the window: the rest ask for single points.
      this.waiting.delete(key);
      for (const w of rest) this.inner.consume(key).then(w.resolve, w.reject);
      return;
    }
    this.waiting.set(key, rest);
    if (!this.pending.has(key)) this.reserve(key);
  }
}

type Granted = { remainingPoints: number; msBeforeNext: number };
interface Waiter {
  resolve: (granted: Granted) => void;
  reject: (error: unknown) => void;
}

/** Reservations of at least this many points are renewed ahead of time (budgets far above the spec's defaults). */
export const PREFETCH_FROM_CHUNK = 20;

interface Held {
  /** Points of the reservation not yet handed out. */
  left: number;
  expiresAt: number;
  /** What the shared window had left after the reservation was taken. */
  shared: number;
  /** The window refused a whole reservation: take single points until it ends. */
  single: boolean;
}

/** Reservation size for a shared budget of `points`. */
export const reservationChunk = (points: number) => Math.max(1, Math.min(100, Math.floor(points / 10)));

export interface LimiterStore {
  redis?: Redis;
  prefix: string;
  log?: Logger;
  /**
   * Whether the request's credit-pack key opens an account (the paid routes' authentication, shared with their
   * credit-key hook so a key is looked up once). Without it no key is trusted: paid calls count by address.
   */
  keyIsValid?: (request: FastifyRequest) => Promise<boolean>;
  /** How often an open Redis breaker checks whether Redis answers again (ms). */
  probeMs?: number;
}

/**
 * A circuit breaker in front of Redis. It opens on the first command that fails or times out (the limiter
 * connection's command timeout), and while it is open every decision is taken from this instance's memory without
 * asking Redis: a Redis that is frozen (its process stopped, its socket open, nothing answered) costs a request at
 * most one command timeout, once, instead of one per request and key. While open it sends a PING every `probeMs`;
 * the first one answered closes it, and the limits are shared through Redis again.
 */
export class RedisBreaker {
  private opened = false;

  constructor(
    private readonly redis: Redis,
    private readonly probeMs = 1_000,
    private readonly log?: Logger,
  ) {}

  get open(): boolean {
    return this.opened;
  }

  trip(): void {
    if (this.opened) return;
    this.opened = true;
    this.log?.warn("redis is not answering: rate limits are decided in this instance's memory until it does");
    this.probe();
  }

  private probe(): void {
    const timer = setTimeout(() => {
      // The connection's command timeout bounds the PING; a connection that is down fails at once.
      this.redis.ping().then(
        () => {
          this.opened = false;
          this.log?.info('redis answers again: rate limits are shared through it');
        },
        () => this.probe(),
      );
    }, this.probeMs);
    timer.unref();
  }
}

/** Builds the budgets of the four limited classes from the configuration. */
export function createBudgets(rateLimits: RateLimitsConfig, store: LimiterStore): Record<LimitedClass, ClassBudget> {
  let lastWarning = 0;
  const breaker = store.redis ? new RedisBreaker(store.redis, store.probeMs, store.log) : undefined;
  const onFallback = () => {
    breaker?.trip();
    countRateLimitFallback();
    const now = Date.now();
    if (now - lastWarning > 60_000) {
      lastWarning = now;
      store.log?.warn("redis is not answering: rate limits fall back to this instance's memory until it does");
    }
  };
  const limiter = (keyPrefix: string, points: number, duration: number): Consumer => {
    const options = { keyPrefix: `${store.prefix}:${keyPrefix}`, points, duration };
    if (!store.redis) return new RateLimiterMemory(options);
    const memory = new FallbackMemoryLimiter(options, onFallback);
    const shared = new RateLimiterRedis({
      ...options,
      storeClient: store.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
    const reserving = new ReservingLimiter(shared, reservationChunk(points));
    return { consume: (key) => (breaker!.open ? memory.consume(key) : reserving.consume(key)) };
  };
  const budgets = {} as Record<LimitedClass, ClassBudget>;
  for (const name of Object.keys(rateLimits) as LimitedClass[]) {
    const { perMinute, burst } = rateLimits[name];
    const reserve = burst > perMinute ? limiter(`${name}:b`, burst - perMinute, BURST_WINDOW_SECONDS) : undefined;
    budgets[name] = new ClassBudget(name, limiter(`${name}:s`, perMinute, 60), reserve, perMinute, burst);
  }
  return budgets;
}

/**
 * Paid routes: the credit-pack key's digest (never the key itself) once the key is known to open an account, or the
 * client address otherwise (no key, a malformed one, or one that is unknown or revoked). A made-up key therefore
 * spends its sender's address budget and creates no state of its own. The key is read by the one Bearer rule
 * (src/payments/authenticate.ts), so what counts as a key here is what authenticates.
 */
export function paidKey(request: FastifyRequest, keyIsValid: boolean): string {
  const token = keyIsValid ? bearerToken(request.headers.authorization) : undefined;
  return token !== undefined ? `k:${createHash('sha256').update(token).digest('hex')}` : `ip:${request.ip}`;
}

/**
 * Addresses whose paid budget refused them, until when (this instance's memory, bounded): a further key from such
 * an address is refused without being looked up, so made-up keys cost the database nothing once the address has
 * spent its budget on them.
 */
class RefusedAddresses {
  private readonly until = new Map<string, { at: number; decision: Decision }>();
  constructor(private readonly max = 100_000) {}

  get(address: string, now: number): Decision | undefined {
    const entry = this.until.get(address);
    if (!entry) return undefined;
    if (entry.at > now) {
      const retryAfter = seconds(entry.at - now);
      return { ...entry.decision, retryAfter, state: entry.decision.state.replace(/t=\d+$/, `t=${retryAfter}`) };
    }
    this.until.delete(address);
    return undefined;
  }

  set(address: string, decision: Decision, now: number): void {
    this.until.delete(address);
    if (this.until.size >= this.max) {
      // The oldest entry goes first (a Map keeps insertion order).
      for (const key of this.until.keys()) {
        this.until.delete(key);
        break;
      }
    }
    this.until.set(address, { at: now + decision.retryAfter * 1000, decision });
  }
}

/** What the limiter is configured by: the on/off switch and the budget of each class. */
export type RateLimitConfig = { rateLimiting: Pick<RateLimitingConfig, 'enabled'>; rateLimits: RateLimitsConfig };

function describe(cls: RateLimitClass, config: RateLimitConfig): Record<string, unknown> {
  if (cls === 'unlimited' || !config.rateLimiting.enabled) return { class: cls, limited: false };
  const { perMinute, burst } = config.rateLimits[cls];
  return {
    class: cls,
    limited: true,
    perMinute,
    burst,
    burstWindowSeconds: BURST_WINDOW_SECONDS,
    key:
      cls === 'paid'
        ? 'SHA-256 of a valid credit-pack key (client address without one, or for a key that is unknown or revoked)'
        : 'client address',
  };
}

/** The headers of a decision (draft-ietf-httpapi-ratelimit-headers), on every response of a limited route. */
export function rateLimitHeaders(budget: ClassBudget, decision: Decision): Record<string, string> {
  return { 'ratelimit-policy': budget.policy, ratelimit: decision.state };
}

/**
 * What the fast path (fast-path.ts) shares with the route hooks: the same budgets, spent under the same key, and the
 * hand-over of a refusal, which the route's hook then answers (the 429 and its headers) without spending again.
 */
export interface SharedLimits {
  /** A class's budget, or undefined when rate limiting is off. */
  budget(cls: LimitedClass): ClassBudget | undefined;
  /** A refusal decided before routing, for the hook of the request's route (of class `cls`) to answer. */
  handOver(req: IncomingMessage, cls: LimitedClass, decision: Decision): void;
}

function tooManyRequests(decision: Decision, budget: ClassBudget): HttpProblem {
  return new HttpProblem(
    429,
    statusTitle(429),
    `Rate limit exceeded for this client (${budget.name} routes). Retry after ${decision.retryAfter} s, or use the feed or a local copy of the dataset for heavy use.`,
    {},
    { 'retry-after': String(decision.retryAfter) },
  );
}

/**
 * Registers the limiter: an onRoute hook that reads each route's class once, documents it in the OpenAPI operation
 * (`x-rate-limit`, and the 429 response), and gives limited routes their hook. Call before any route is added.
 */
export function registerRateLimit(app: FastifyInstance, config: RateLimitConfig, store: LimiterStore): SharedLimits {
  const budgets = config.rateLimiting.enabled ? createBudgets(config.rateLimits, store) : undefined;
  const handedOver = new WeakMap<IncomingMessage, { cls: LimitedClass; decision: Decision }>();
  const hooks = new Map<
    LimitedClass,
    (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void
  >();
  const refusedAddresses = new RefusedAddresses();
  const hookFor = (cls: LimitedClass) => {
    let hook = hooks.get(cls);
    if (hook) return hook;
    const budget = budgets![cls];
    const settle = (
      request: FastifyRequest,
      reply: FastifyReply,
      done: (err?: Error) => void,
      decision: Decision,
      byAddress: boolean,
    ) => {
      reply.headers(rateLimitHeaders(budget, decision));
      if (decision.allowed) return done();
      if (cls === 'paid' && byAddress) refusedAddresses.set(request.ip, decision, Date.now());
      countRateLimited(cls);
      done(tooManyRequests(decision, budget));
    };
    const decide = (
      request: FastifyRequest,
      reply: FastifyReply,
      done: (err?: Error) => void,
      key: string,
      byAddress: boolean,
    ) => {
      budget.decide(key).then(
        (decision) => settle(request, reply, done, decision, byAddress),
        (err: unknown) => {
          // A limiter failure must never become an error response: let the request through.
          store.log?.warn({ reqId: request.id, err }, 'rate limiter failed; request let through');
          done();
        },
      );
    };
    if (cls !== 'paid') {
      hook = (request, reply, done) => {
        const early = handedOver.get(request.raw);
        if (early === undefined || early.cls !== cls) return decide(request, reply, done, request.ip, true);
        handedOver.delete(request.raw);
        settle(request, reply, done, early.decision, true);
      };
    } else {
      const keyIsValid = store.keyIsValid;
      hook = (request, reply, done) => {
        if (!keyIsValid || bearerToken(request.headers.authorization) === undefined) {
          return decide(request, reply, done, paidKey(request, false), true);
        }
        // An address that spent its budget is refused before its key is looked up.
        const refused = refusedAddresses.get(request.ip, Date.now());
        if (refused) {
          reply.headers(rateLimitHeaders(budget, refused));
          countRateLimited(cls);
          return done(tooManyRequests(refused, budget));
        }
        keyIsValid(request).then(
          (valid) => decide(request, reply, done, paidKey(request, valid), !valid),
          // The look-up failed (the database): the route's own authentication answers (503), not the limiter.
          () => done(),
        );
      };
    }
    hooks.set(cls, hook);
    return hook;
  };

  app.addHook('onRoute', (route) => {
    const cls = routeClass(route);
    const schema = route.schema as Record<string, unknown> | undefined;
    if (schema && !schema.hide) {
      schema['x-rate-limit'] = describe(cls, config);
      if (cls !== 'unlimited' && config.rateLimiting.enabled) {
        const response = (schema.response ?? {}) as Record<string, unknown>;
        if (!response['429']) {
          response['429'] = errorResponses(429)['429'];
          schema.response = response;
        }
      }
    }
    if (!budgets || cls === 'unlimited') return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [hookFor(cls), ...existing] as RouteOptions['onRequest'];
  });
  return {
    budget: (cls) => budgets?.[cls],
    handOver: (req, cls, decision) => handedOver.set(req, { cls, decision }),
  };
}
