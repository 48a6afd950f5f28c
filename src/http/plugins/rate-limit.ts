import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { LimitedClass } from '../../config.js';
import { countRateLimited } from '../../metrics.js';
import { bearerToken } from '../../payments/authenticate.js';
import { createBudgets, type ClassBudget } from './rate-limit/budgets.js';
import { paidKey, RefusedAddresses } from './rate-limit/client-key.js';
import type { BudgetStore } from './rate-limit/limiters.js';
import { documentRateLimit } from './rate-limit/openapi.js';
import { rateLimitHeaders, tooManyRequests } from './rate-limit/response.js';
import { routeClass } from './rate-limit/route-class.js';
import type { Decision, RateLimitConfig } from './rate-limit/types.js';

/**
 * Rate limits per route class (the seam every route uses): a route declares
 * `config: { rateLimit: 'free' | 'signal' | 'receipts' | 'export' | 'paid' | 'unlimited' }` in its options, or gets
 * its class from routeClass (rate-limit/route-class.ts). The class is read once, when the route is registered; an
 * unlimited route gets no hook at all, a limited one a single onRequest hook.
 *
 * Each class is a budget per client (per client address; 'paid' per valid credit-pack key, the SHA-256 of the
 * Bearer token, or per address when there is none or it opens nothing: rate-limit/client-key.ts) shared by every
 * route of that class. A budget is `perMinute` requests in each fixed minute plus a reserve of `burst − perMinute`
 * that refills every BURST_WINDOW_SECONDS: a client can send `burst` requests at once, and over a long run at most
 * perMinute + (burst − perMinute) / 10 a minute (rate-limit/budgets.ts).
 *
 * Counters live in memory, or in Redis when REDIS_URL is set so that every instance draws on one budget. When Redis
 * does not answer, the decision is taken from local memory (logged, counted in metrics), never a 5xx; a breaker
 * keeps it there without asking Redis until Redis answers again (rate-limit/limiters.ts).
 */

// The limiter's parts the fast path and the tests reach through the plugin.
export { createBudgets } from './rate-limit/budgets.js';
export { paidKey } from './rate-limit/client-key.js';
export { rateLimitHeaders } from './rate-limit/response.js';
export { reservationChunk, ReservingLimiter } from './rate-limit/reserving-limiter.js';
export { routeClass } from './rate-limit/route-class.js';
export type { Decision } from './rate-limit/types.js';

/** Where the budgets keep their counters, and how the paid class checks a key. */
export interface LimiterStore extends BudgetStore {
  /**
   * Whether the request's credit-pack key opens an account (the paid routes' authentication, shared with their
   * credit-key hook so a key is looked up once). Without it no key is trusted: paid calls count by address.
   */
  keyIsValid?: (request: FastifyRequest) => Promise<boolean>;
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

type Done = (err?: Error) => void;
type Hook = (request: FastifyRequest, reply: FastifyReply, done: Done) => void;

/**
 * Registers the limiter: an onRoute hook that reads each route's class once, documents it in the OpenAPI operation
 * (`x-rate-limit`, and the 429 response), and gives limited routes their hook. Call before any route is added.
 */
export function registerRateLimit(app: FastifyInstance, config: RateLimitConfig, store: LimiterStore): SharedLimits {
  const budgets = config.rateLimiting.enabled ? createBudgets(config.rateLimits, store) : undefined;
  const handedOver = new WeakMap<IncomingMessage, { cls: LimitedClass; decision: Decision }>();
  const hooks = new Map<LimitedClass, Hook>();
  const refusedAddresses = new RefusedAddresses();

  const hookFor = (cls: LimitedClass): Hook => {
    let hook = hooks.get(cls);
    if (hook) return hook;
    const budget = budgets![cls];
    const settle = (
      request: FastifyRequest,
      reply: FastifyReply,
      done: Done,
      decision: Decision,
      byAddress: boolean,
    ) => {
      reply.headers(rateLimitHeaders(budget, decision));
      if (decision.allowed) return done();
      if (cls === 'paid' && byAddress) refusedAddresses.set(request.ip, decision);
      countRateLimited(cls);
      done(tooManyRequests(decision, budget));
    };
    const decide = (request: FastifyRequest, reply: FastifyReply, done: Done, key: string, byAddress: boolean) => {
      budget.decide(key).then(
        (decision) => settle(request, reply, done, decision, byAddress),
        (err: unknown) => {
          // A limiter failure must never become an error response: let the request through.
          store.log?.warn({ reqId: request.id, err }, 'rate limiter failed; request let through');
          done();
        },
      );
    };
    hook = cls === 'paid' ? paidHook(decide) : addressHook(cls, decide, settle);
    hooks.set(cls, hook);
    return hook;
  };

  /** Classes counted by address; a refusal the fast path decided before routing is answered, not spent again. */
  const addressHook =
    (
      cls: LimitedClass,
      decide: (request: FastifyRequest, reply: FastifyReply, done: Done, key: string, byAddress: boolean) => void,
      settle: (
        request: FastifyRequest,
        reply: FastifyReply,
        done: Done,
        decision: Decision,
        byAddress: boolean,
      ) => void,
    ): Hook =>
    (request, reply, done) => {
      const early = handedOver.get(request.raw);
      if (early === undefined || early.cls !== cls) return decide(request, reply, done, request.ip, true);
      handedOver.delete(request.raw);
      settle(request, reply, done, early.decision, true);
    };

  /** The paid class: by key once the key is known to open an account, by address otherwise. */
  const paidHook =
    (
      decide: (request: FastifyRequest, reply: FastifyReply, done: Done, key: string, byAddress: boolean) => void,
    ): Hook =>
    (request, reply, done) => {
      const keyIsValid = store.keyIsValid;
      if (!keyIsValid || bearerToken(request.headers.authorization) === undefined) {
        return decide(request, reply, done, paidKey(request, false), true);
      }
      // An address that spent its budget is refused before its key is looked up.
      const refused = refusedAddresses.get(request.ip);
      if (refused) {
        const budget = budgets!.paid;
        reply.headers(rateLimitHeaders(budget, refused));
        countRateLimited('paid');
        return done(tooManyRequests(refused, budget));
      }
      keyIsValid(request).then(
        (valid) => decide(request, reply, done, paidKey(request, valid), !valid),
        // The look-up failed (the database): the route's own authentication answers (503), not the limiter.
        () => done(),
      );
    };

  app.addHook('onRoute', (route) => {
    const cls = routeClass(route);
    documentRateLimit(route.schema as Record<string, unknown> | undefined, cls, config);
    if (!budgets || cls === 'unlimited') return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [hookFor(cls), ...existing] as RouteOptions['onRequest'];
  });
  return {
    budget: (cls) => budgets?.[cls],
    handOver: (req, cls, decision) => handedOver.set(req, { cls, decision }),
  };
}
