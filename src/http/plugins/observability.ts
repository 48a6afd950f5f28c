import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import type { MetricsConfig, ServerConfig } from '../../config.js';
import { collectProcessMetrics, httpRecorder, renderMetrics } from '../../metrics.js';
import { compileTrust } from '../client-address.js';
import { bearerToken } from '../../payments/authenticate.js';
import { ServiceError } from '../../domain/errors.js';

/**
 * Request ids, the access log and the HTTP metrics.
 *
 * - Every response carries `X-Request-Id`. A well-formed id sent by a trusted proxy (TRUST_PROXY) is kept, so a
 *   request can be followed through the proxy's logs and ours; otherwise the id is this process's random prefix and
 *   a counter (unique across instances, cheaper than a UUID).
 * - ACCESS_LOG=on adds one hook writing one line per response; off, the hook does not exist. Query values are
 *   never written (loggedUrl).
 * - Metrics are recorded by a per-route hook with its labelled series resolved once per status code; only when
 *   metrics are exposed (METRICS_PORT or METRICS_TOKEN), otherwise no hook exists.
 */
const REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/**
 * How many ids one prefix serves: a base-36 counter of 5 digits, so a generated id (6 characters of prefix, a dash,
 * the counter) is 12 characters long. V8 makes a concatenation of 13 characters or more a rope (a ConsString), and
 * node:http checks every header value with a regular expression, which on a rope goes through V8's runtime and
 * flattens it first (about 1,200 instructions a response, counted by `npm run bench http`); a shorter concatenation
 * is copied into a flat string at once. Past the last counter a new random prefix is drawn.
 */
export const IDS_PER_PREFIX = 36 ** 5;

/** The counter's last two digits, '00' to 'zz', by value. */
const LOW_DIGITS = Array.from({ length: 36 * 36 }, (_, i) => i.toString(36).padStart(2, '0'));

/**
 * The request id generator. An id is the prefix, a dash and the counter in 5 base-36 digits: the first three change
 * every 1,296 ids and are written then, the last two are read from a table, so an id costs one short concatenation
 * (converting the counter to base 36 on every request cost about 220 instructions, `npm run bench http`).
 */
export function requestIdGenerator(
  server: Pick<ServerConfig, 'trustProxy'>,
  idsPerPrefix = IDS_PER_PREFIX,
): (req: IncomingMessage) => string {
  const trusted = compileTrust(server.trustProxy);
  // 32 random bits in 6 characters: ids stay apart across instances, and across the prefixes of one.
  const newPrefix = () => `${randomBytes(4).toString('base64url')}-`;
  let prefix = newPrefix();
  let counter = 0;
  // The prefix and the counter's first three digits, for the counters of `block`.
  let high = '';
  let block = -1;
  return (req) => {
    const offered = req.headers['x-request-id'];
    if (typeof offered === 'string' && REQUEST_ID.test(offered) && trusted(req.socket.remoteAddress ?? '', 0)) {
      return offered;
    }
    let n = ++counter;
    if (n >= idsPerPrefix) {
      prefix = newPrefix();
      counter = n = 1;
      block = -1;
    }
    const b = (n / LOW_DIGITS.length) | 0;
    if (b !== block) {
      block = b;
      high = prefix + b.toString(36).padStart(3, '0');
    }
    return high + LOW_DIGITS[n - b * LOW_DIGITS.length]!;
  };
}

const MAX_LOGGED_URL = 300;
const PLAIN_NAME = /^[A-Za-z0-9_.[\]-]{1,32}$/;

/**
 * The request target as the access log writes it: the path, and the query's parameter names with every value
 * replaced by `-` (a name that is not a short plain word is replaced too). A query may carry a secret (`?api_key=…`, a checkout session, a token a client put in the wrong
 * place), and no list of sensitive names can be complete, so no query value is written at all. At most 300
 * characters.
 */
function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  let logged = url;
  if (mark >= 0) {
    const names = url
      .slice(mark + 1)
      .split('&')
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        // A name could be a secret too (`?sigsk_…` with no value): only short plain names are kept.
        return `${PLAIN_NAME.test(name) ? name : '-'}${eq < 0 ? '' : '=-'}`;
      });
    logged = names.length ? `${url.slice(0, mark)}?${names.join('&')}` : url.slice(0, mark);
  }
  return logged.length > MAX_LOGGED_URL ? `${logged.slice(0, MAX_LOGGED_URL)}…` : logged;
}

export function metricsEnabled(metrics: MetricsConfig): boolean {
  return metrics.port !== undefined || metrics.token !== undefined;
}

/** The access log (server.accessLog) and the metrics hooks and route (the metrics section). */
export function registerObservability(
  app: FastifyInstance,
  config: { server: Pick<ServerConfig, 'accessLog'>; metrics: MetricsConfig },
  log: Logger,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  if (config.server.accessLog) {
    app.addHook('onResponse', (request, reply, done) => {
      log.info(
        {
          reqId: request.id,
          method: request.method,
          url: loggedUrl(request.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          ip: request.ip,
        },
        'request',
      );
      done();
    });
  }

  if (metricsEnabled(config.metrics)) {
    collectProcessMetrics();
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const record = httpRecorder(methods.join(','), route.url ?? '');
      const hook: NonNullable<RouteOptions['onResponse']> = (_request, reply, done) => {
        record(reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
      const existing = route.onResponse
        ? Array.isArray(route.onResponse)
          ? route.onResponse
          : [route.onResponse]
        : [];
      route.onResponse = [...existing, hook] as RouteOptions['onResponse'];
    });
  }

  if (config.metrics.token) {
    const expected = createHash('sha256').update(config.metrics.token).digest();
    app.get('/metrics', { schema: { hide: true }, config: { rateLimit: 'unlimited' } }, async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      const offered = createHash('sha256')
        .update(token ?? '')
        .digest();
      if (token === undefined || !timingSafeEqual(offered, expected)) {
        throw new ServiceError('metrics-token-required');
      }
      const { contentType, body } = await renderMetrics();
      reply.header('content-type', contentType).header('cache-control', 'no-store');
      return body;
    });
  }
}

/** The separate metrics listener (METRICS_PORT): GET /metrics only, nothing of the public API. */
export async function startMetricsListener(metrics: MetricsConfig, log: Logger): Promise<http.Server | undefined> {
  const { port, host } = metrics;
  if (port === undefined) return undefined;
  const server = http.createServer((req, res) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && (req.url ?? '').split('?')[0] === '/metrics') {
      renderMetrics().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (err: unknown) => {
          log.error({ err }, 'could not render metrics');
          res.writeHead(500).end();
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  log.info({ port, host }, 'metrics listener started');
  return server;
}
