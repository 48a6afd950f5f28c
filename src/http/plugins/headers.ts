import type { FastifyInstance, onRequestHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route sends only pre-rendered bodies whose prepared header objects already carry the common headers
     * (`renderedSender({ ...commonHeaders(https), … })`), so it skips the per-request hook that sets them.
     */
    commonHeadersPrepared?: boolean;
  }
}

/** Headers every public response carries: open CORS (the data is public) and conservative security headers. */
export const EXPOSED_HEADERS = [
  'ETag',
  'Link',
  'X-Account-Reference',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Credits-Balance',
  'X-PAYMENT-RESPONSE',
  'X-Request-Id',
];
const ALLOWED_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'X-PAYMENT',
  'MCP-Protocol-Version',
  'Mcp-Session-Id',
  'A2A-Version',
];
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export function commonHeaders(https: boolean): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'cross-origin',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

export function registerCommonHeaders(app: FastifyInstance, https: boolean): void {
  const headers = commonHeaders(https);
  const setCommonHeaders: onRequestHookHandler = (_request, reply, done) => {
    reply.headers(headers);
    done();
  };
  // Decided once per route, when it is registered: every route gets a hook with a prebuilt header object, except
  // the hot reads that carry the headers in their prepared header objects. Responses that never reach a route
  // (404, framework errors) and every problem document get them from the error handling (plugins/errors.ts).
  app.addHook('onRoute', (route) => {
    if (route.config?.commonHeadersPrepared) return;
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [setCommonHeaders, ...own];
  });

  // CORS preflight for every path.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    const asked = request.headers['access-control-request-headers'];
    const allowHeaders =
      typeof asked === 'string' && HEADER_LIST.test(asked.trim()) ? asked.trim() : ALLOWED_REQUEST_HEADERS.join(', ');
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD, POST, OPTIONS')
      .header('access-control-allow-headers', allowHeaders)
      .header('access-control-max-age', '86400')
      .header('cache-control', 'public, max-age=86400')
      .send();
  });
}
