import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Outcome } from '../domain/errors.js';
import { authenticate } from '../payments/authenticate.js';
import { withPurchaseHelp } from '../payments/paid-call.js';
import type { KeyAccount } from '../payments/keys.js';
import type { AppContext } from './context.js';

/**
 * Credit-pack key authentication for the paid routes: `Authorization: Bearer <key>`, checked by `authenticate`
 * (src/payments/authenticate.ts). Runs as the route's onRequest hook, before the body is read, so an unauthenticated
 * caller costs no parsing. Missing, malformed, unknown or revoked → 401 with `WWW-Authenticate: Bearer` (RFC 6750;
 * `error="invalid_token"` when a key was presented; see problemResponse). A valid key puts `X-Credits-Balance` on
 * the reply at once, so every answer to it carries the header, errors included. The 401 says where to buy a key
 * (the paid-call policy, src/payments/paid-call.ts). The key never appears in a problem body or a log line.
 */
export const CREDIT_KEY_SCHEME = 'creditKey';
export const CREDIT_KEY_SECURITY = [{ [CREDIT_KEY_SCHEME]: [] }];

const accounts = new WeakMap<FastifyRequest, KeyAccount>();
const outcomes = new WeakMap<FastifyRequest, Promise<Outcome<KeyAccount>>>();

/**
 * The request's authentication, looked up once however many hooks ask: the paid rate limiter asks first (a key that
 * opens nothing counts against the address), then creditKeyHook.
 */
export function authenticateRequest(ctx: Pick<AppContext, 'store'>, request: FastifyRequest) {
  let outcome = outcomes.get(request);
  if (!outcome) {
    outcome = authenticate(ctx.store.db, request.headers.authorization);
    outcomes.set(request, outcome);
  }
  return outcome;
}

export function creditKeyHook(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const authenticated = await authenticateRequest(ctx, request);
    if (!authenticated.ok) throw withPurchaseHelp(authenticated.error, ctx.urls.base);
    const account = authenticated.value;
    accounts.set(request, account);
    reply.header('x-credits-balance', String(account.balance)).header('cache-control', 'no-store');
  };
}

/** The account the request's key opened (only on routes that run `creditKeyHook`). */
export function creditAccountOf(request: FastifyRequest): KeyAccount {
  const account = accounts.get(request);
  if (!account) throw new Error('creditKeyHook did not run on this route');
  return account;
}
