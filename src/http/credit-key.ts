import type { FastifyReply, FastifyRequest } from 'fastify';
import { findAccountByKey, type KeyAccount } from '../payments/keys.js';
import type { AppContext } from './context.js';
import { HttpProblem, statusTitle } from './problem.js';

/**
 * Credit-pack key authentication for the paid routes: `Authorization: Bearer <key>`. Runs as the route's onRequest
 * hook, before the body is read, so an unauthenticated caller costs no parsing. Missing, malformed, unknown or
 * revoked → 401 with `WWW-Authenticate: Bearer` (RFC 6750; `error="invalid_token"` when a key was presented). A
 * valid key puts `X-Credits-Balance` on the reply at once, so every answer to it carries the header, errors
 * included. The key never appears in a problem body or a log line.
 */
export const CREDIT_KEY_SCHEME = 'creditKey';
export const CREDIT_KEY_SECURITY = [{ [CREDIT_KEY_SCHEME]: [] }];
const REALM = 'signal-service';

const accounts = new WeakMap<FastifyRequest, KeyAccount>();

function unauthorized(presented: boolean): HttpProblem {
  return new HttpProblem(
    401,
    statusTitle(401),
    presented
      ? 'The credit-pack key is not valid (unknown, malformed or revoked).'
      : 'A credit-pack key is required: send Authorization: Bearer <key>.',
    {},
    {
      'www-authenticate': presented ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`,
      'cache-control': 'no-store',
    },
  );
}

/** The bearer token of an Authorization header, or undefined when there is none in that form. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  return match?.[1];
}

export function creditKeyHook(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    const token = bearerToken(header);
    if (!token) throw unauthorized(header !== undefined && header !== '');
    const account = await findAccountByKey(ctx.store.db, token);
    if (!account) throw unauthorized(true);
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
