import { fail, KEY_NOT_VALID, KEY_REQUIRED, ServiceError, succeed, type Outcome } from '../domain/errors.js';
import type { Executor } from '../store/schema.js';
import { findAccountByKey, type KeyAccount } from './keys.js';

/**
 * Authentication, once for every surface: an `Authorization` header value to the credit-pack account it opens, or
 * the ServiceError that says why not (missing, malformed, or a key that is unknown or revoked; all 401). REST's
 * paid routes, /api/agent/call, MCP over HTTP and A2A all call `authenticate`; signal-mcp, whose key comes from
 * SIGNAL_API_KEY rather than a header, calls `authenticateKey`, the step after the header is read. The key never
 * appears in an error.
 */

/**
 * The one Bearer rule (RFC 6750 §2.1, at its strictest): the scheme, case-insensitive; exactly one space; one
 * token68 (letters, digits, `-._~+/`, then optional `=` padding); nothing else, not even trailing whitespace. At
 * most 512 characters of token (a key has 49).
 */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]{1,512}=*)$/i;

/** The token of a Bearer `Authorization` header value, or undefined when the value is absent or not in that form. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}

export { KEY_NOT_VALID, KEY_REQUIRED };

/** The account a credit-pack key opens; `whenMissing` is the error that says where the key should have come from. */
export async function authenticateKey(
  db: Executor,
  key: string | undefined,
  whenMissing: 'credentials-missing' | 'signal-mcp-key-missing' = 'credentials-missing',
): Promise<Outcome<KeyAccount>> {
  if (key === undefined || key === '') return fail(new ServiceError(whenMissing));
  const account = await findAccountByKey(db, key);
  return account ? succeed(account) : fail(new ServiceError('credentials-invalid'));
}

/** The account an `Authorization` header value opens. */
export async function authenticate(db: Executor, header: string | undefined): Promise<Outcome<KeyAccount>> {
  if (header === undefined || header === '') return fail(new ServiceError('credentials-missing'));
  const token = bearerToken(header);
  if (token === undefined) return fail(new ServiceError('credentials-malformed'));
  return authenticateKey(db, token);
}
