import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { LimitedClass } from '../config.js';
import type { Rendered } from '../snapshot/snapshot.js';
import type { Prepared, PreparedHeaders } from './conditional.js';
import { bodyOf, codingOf, heldRepresentation } from './conditional.js';
import { rateLimitHeaders, type Decision, type SharedLimits } from './plugins/rate-limit.js';

/**
 * The fast path: the hottest pre-rendered reads (the snapshot JSON, the single-startup lookup, the home and startup
 * pages) answered before the framework's generic path (routing, hooks, `Reply.send`), so a read costs about what a
 * bare node:http server sending the same bytes costs. It is hand-written because no library answers there: every
 * Fastify plugin and hook (onRequest included) runs after the router has matched the route and built the request and
 * reply objects, and that generic path is the cost to skip; so this is a node:http 'request' listener in front of it.
 *
 * Each read is declared by the route that owns it (routes/signals.ts, routes/site.ts), from the route's own state:
 * the body it would send (a rendered period body, a cached lookup answer, a rendered page) and its prepared headers
 * (the route sender's `representations`), chosen by the same functions (conditional.ts). A read answers only what
 * the route would answer from that state alone, and leaves everything else to the framework, which answers it as
 * before: another method or URL, a request body, a query the read does not take, percent-encoding it does not
 * decode, a body not rendered, cached or compressed yet, no period yet, a closing server, an X-Forwarded-For it does
 * not parse. (The access log and the metrics need the framework's hooks: server.ts does not install it then.)
 *
 * A rate-limited read spends the same budget (plugins/rate-limit.ts `SharedLimits`) under the same key (the client
 * address as Fastify computes `request.ip`), and sends the same RateLimit headers; a refusal is handed over to the
 * route's hook, which answers the 429 without spending again. What the request gets is what the route sends: the
 * same status, headers (the common CORS and security headers, `X-Request-Id` from the same generator, ETag, Vary,
 * coding, RateLimit) and bytes; test/http/fast-path.test.ts compares them byte for byte.
 */
export interface FastRead {
  /** The path answered, exactly (`/api/signal`); with `segment`, the prefix before one more path segment. */
  path: string;
  /** `path` is a prefix (`/startups/`) followed by one path segment, which `answer` receives. */
  segment?: boolean;
  /**
   * What the route would send for this target, or undefined for the framework to answer it. `rest` is the segment
   * after a prefix ('' for an exact path), `query` what follows `?` ('' without one), both exactly as sent.
   */
  answer(rest: string, query: string): FastAnswer | undefined;
  /** The route's rate-limit class, when it is limited (not 'paid': its key needs the credit-pack look-up). */
  rateLimit?: Exclude<LimitedClass, 'paid'>;
  /**
   * The answer to a request target stays the same for the whole period once given (it depends on the period and the
   * target alone): the fast path then remembers it per target until the period changes (or the memo reaches
   * `REMEMBERED_TARGETS` or `REMEMBERED_BYTES` and starts again), so a repeated target costs one look-up of the whole
   * target instead of the split and the read's.
   */
  samePerPeriod?: boolean;
}

/** A pre-rendered body and its route's prepared headers (the route's `RenderedSender.representations(entity)`). */
export interface FastAnswer {
  entity: Rendered;
  representations: Prepared;
}

export interface FastPathOptions {
  /** The framework's request id generator. */
  requestId(req: IncomingMessage): string;
  /** The client address as the framework computes it (`request.ip`), or undefined when it cannot tell the same. */
  clientAddress(req: IncomingMessage): string | undefined;
  /** The rate limiter's budgets (undefined: no read is limited). */
  limits?: SharedLimits;
  /**
   * The period being served, or undefined before there is one: what the `samePerPeriod` reads remember is dropped
   * when it changes. Without it nothing is remembered.
   */
  period?: PeriodSource;
}

/** Where the fast path learns the period (the snapshot holder is one). */
export interface PeriodSource {
  /** The period being served: any object that changes when it does. */
  readonly current: object | undefined;
  /**
   * Called after each change of period, so what was remembered for the old one is let go at once rather than at the
   * next fast-path request (until then it would keep the old period's bodies alive).
   */
  onSwap(listener: () => void, name?: string): void;
}

/** How many request targets are remembered per period at most (the lookup's own cache holds as many answers). */
export const REMEMBERED_TARGETS = 10_000;

/**
 * How many bytes of bodies the remembered answers may name at most (each counted once per target, coded copies
 * left out). A remembered page keeps its body alive after the site's own page cache has let it go; past this the
 * memo starts again, so it never holds much more than the page cache would (about 700 startup pages of the demo).
 */
export const REMEMBERED_BYTES = 32 * 1024 * 1024;

/** A `samePerPeriod` read's answer to one request target. */
interface Remembered {
  read: FastRead;
  answer: FastAnswer;
}

/**
 * A prepared header list as node:http writes it (name, value, name, value…): the per-request headers first (the
 * request id, then the two RateLimit headers on a limited read, filled in per request), then the representation's.
 */
type RawHeaders = (string | number)[];

export function installFastPath(server: Server, reads: readonly FastRead[], options: FastPathOptions) {
  if (reads.length === 0) return;
  const { requestId, clientAddress, limits, period } = options;
  const exact = new Map(reads.filter((read) => !read.segment).map((read) => [read.path, read]));
  const prefixed = new Map(reads.filter((read) => read.segment).map((read) => [read.path, read]));

  // One list per representation and status, built once: writeHead copies it out, so every request reuses it.
  const okLists = new WeakMap<PreparedHeaders, RawHeaders>();
  const notModifiedLists = new WeakMap<PreparedHeaders, RawHeaders>();
  const listOf = (status: 200 | 304, representation: PreparedHeaders, body: Buffer, limit?: Record<string, string>) => {
    const lists = status === 200 ? okLists : notModifiedLists;
    let list = lists.get(representation);
    if (list === undefined) {
      const headers = status === 200 ? representation.ok : representation.notModified;
      const perRequest = ['x-request-id', '', ...Object.keys(limit ?? {}).flatMap((name) => [name, ''])];
      list = [...perRequest, ...Object.entries(headers).flat()];
      // A string, as node:http would make of it: a number is converted again on every response it is checked for.
      if (status === 200) list.push('content-length', String(body.length));
      lists.set(representation, list);
    }
    return list;
  };

  const write = (
    req: IncomingMessage,
    res: ServerResponse,
    status: 200 | 304,
    representation: PreparedHeaders,
    body: Buffer,
    limit?: Record<string, string>,
  ) => {
    const headers = listOf(status, representation, body, limit);
    headers[1] = requestId(req);
    let end = 2;
    if (limit !== undefined) {
      for (const name in limit) {
        headers[end++] = name;
        headers[end++] = limit[name]!;
      }
    }
    res.writeHead(status, headers);
    // writeHead has copied the values out. The list lives as long as the period's body, and a per-request value left
    // in it would be kept alive past the next young-generation collection (and then promoted), once per list.
    for (let i = 1; i < end; i += 2) headers[i] = '';
    if (status === 304 || req.method === 'HEAD') res.end();
    else res.end(body);
  };

  const [framework] = server.listeners('request') as RequestListener[];
  if (framework === undefined) throw new Error('installFastPath: the server has no request listener yet');
  server.removeListener('request', framework);
  // The samePerPeriod reads' answers by request target, for the period `rememberedFor`. The comparison per request
  // decides what is answered; the swap listener only lets the old answers go early (a listener registered before it
  // that throws would stop the holder from calling it).
  const remembered = new Map<string, Remembered>();
  let rememberedFor: object | undefined;
  let rememberedBytes = 0;
  const forget = () => {
    remembered.clear();
    rememberedBytes = 0;
  };
  period?.onSwap(() => {
    forget();
    rememberedFor = undefined;
  }, 'fast-path memo');

  // What a request target answers, found by its path and query (the path split once per target and period for the
  // remembered reads): undefined for the framework to answer it. Apart from the listener, which stays small.
  const find = (url: string, current: object | undefined): Remembered | undefined => {
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    let read = exact.get(path);
    let rest = '';
    if (read === undefined) {
      const slash = path.lastIndexOf('/');
      read = prefixed.get(path.slice(0, slash + 1));
      rest = path.slice(slash + 1);
    }
    if (read === undefined) return undefined;
    const answer = read.answer(rest, mark < 0 ? '' : url.slice(mark + 1));
    if (answer === undefined) return undefined;
    const found: Remembered = { read, answer };
    if (read.samePerPeriod && current !== undefined) {
      const bytes = answer.entity.body.length;
      if (remembered.size >= REMEMBERED_TARGETS || rememberedBytes + bytes > REMEMBERED_BYTES) forget();
      remembered.set(url, found);
      rememberedBytes += bytes;
    }
    return found;
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method;
    const headers = req.headers;
    // A request with a body goes to the framework, whose content-type parsers decide about it.
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      !server.listening
    ) {
      return framework(req, res);
    }
    const url = req.url!;
    const current = period?.current;
    if (current !== rememberedFor) {
      forget();
      rememberedFor = current;
    }
    const found = remembered.get(url) ?? find(url, current);
    if (found === undefined) return framework(req, res);
    const { read, answer } = found;

    const { entity, representations: entry } = answer;
    const coding = codingOf(entry, headers['accept-encoding']);
    const held = heldRepresentation(entry, entity, coding, headers['if-none-match']);
    const representation = held ?? entry[coding];
    const body = held !== undefined ? entity.body : bodyOf(entity, representation, coding);
    if (body === undefined) return framework(req, res);
    const status = held !== undefined ? 304 : 200;

    const budget = read.rateLimit === undefined ? undefined : limits?.budget(read.rateLimit);
    if (budget === undefined) return write(req, res, status, representation, body);
    const key = clientAddress(req);
    if (key === undefined) return framework(req, res);
    const cls = read.rateLimit!;
    budget.decide(key).then(
      (decision: Decision) => {
        if (decision.allowed) return write(req, res, status, representation, body, rateLimitHeaders(budget, decision));
        limits!.handOver(req, cls, decision);
        framework(req, res);
      },
      // The limiter failed: the route's hook decides (and lets the request through if it fails again).
      () => framework(req, res),
    );
  });
}
