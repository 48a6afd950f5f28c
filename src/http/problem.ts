import { ServiceError, statusTitle, type FieldIssue } from '../domain/errors.js';

/**
 * Errors are values (src/domain/errors.ts); this module is the one place a ServiceError becomes an RFC 9457
 * `application/problem+json` response: its status, its headers and its body. The error handler and every route
 * that answers a problem itself use it.
 */
export { statusTitle };

export type ProblemField = FieldIssue;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The realm of the credit-pack key (RFC 6750 WWW-Authenticate). */
export const CREDIT_KEY_REALM = 'signal-service';

export function problemBody(
  status: number,
  title: string,
  detail: string | undefined,
  instance: string | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'about:blank',
    title,
    status,
    ...(detail ? { detail } : {}),
    ...(instance ? { instance } : {}),
    ...extra,
  };
}

export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * The headers a service error implies: Retry-After, Allow on a wrong method, and WWW-Authenticate on a refused
 * credit-pack key or metrics token.
 */
function problemHeaders(error: ServiceError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.allow !== undefined) headers['allow'] = error.allow;
  if (error.code === 'credentials-missing') headers['www-authenticate'] = `Bearer realm="${CREDIT_KEY_REALM}"`;
  if (error.code === 'credentials-malformed' || error.code === 'credentials-invalid') {
    headers['www-authenticate'] = `Bearer realm="${CREDIT_KEY_REALM}", error="invalid_token"`;
  }
  if (error.id === 'metrics-token-required') headers['www-authenticate'] = 'Bearer realm="metrics"';
  return headers;
}

/** A service error as an HTTP response: status, headers and RFC 9457 body (`instance` is the request path). */
export function problemResponse(error: ServiceError, instance: string | undefined): ProblemResponse {
  return {
    status: error.status,
    headers: problemHeaders(error),
    body: problemBody(error.status, error.title, error.detail, instance, error.extensions),
  };
}
