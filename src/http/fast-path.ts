import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Rendered } from '../snapshot/snapshot.js';
import type { Prepared, PreparedHeaders } from './conditional.js';
import { matchesEtag } from './conditional.js';
import { negotiate } from './encoding.js';
import { readyVariant } from './precompressed.js';

/**
 * The fast path: the hottest pre-rendered reads answered before the framework's generic path (routing, hooks,
 * `Reply.send`), with the bytes and headers the route itself would send (the same `representations`), so a read costs
 * about what a bare node:http server sending those bytes costs.
 *
 * A read qualifies only when the route does nothing per request besides choosing the representation: a fixed path,
 * GET or HEAD, no query, no rate limit (an unlimited class), no access log or metrics hook. Everything else — any
 * other URL (a query string included), a body not compressed yet in the coding asked for, no period published yet,
 * a server that is closing — goes the normal way, which answers it as before.
 *
 * What the request gets is what the route sends: the same status, headers (the common CORS and security headers,
 * `X-Request-Id` from the same generator, ETag, Vary, coding) and bytes; test/http/fast-path.test.ts compares them.
 */
export interface FastRead {
  /** The request target, exactly (`/api/signals.json`). */
  path: string;
  /** The body of the current period, or undefined when there is none (the route answers that). */
  entity(): Rendered | undefined;
  /** The route's representations (conditional.ts `representations`, with the route's own headers). */
  representations(entity: Rendered): Prepared;
}

/** A prepared header list as node:http writes it (name, value, name, value…), its first value the request id. */
type RawHeaders = (string | number)[];

export function installFastPath(
  server: Server,
  reads: readonly FastRead[],
  requestId: (req: IncomingMessage) => string,
) {
  if (reads.length === 0) return;
  const table = new Map(reads.map((read) => [read.path, read]));
  const raw = new WeakMap<PreparedHeaders, { ok: RawHeaders; notModified: RawHeaders }>();
  const rawOf = (headers: PreparedHeaders, body: Buffer) => {
    let found = raw.get(headers);
    if (found === undefined) {
      const list = (h: Record<string, string>): RawHeaders => ['x-request-id', '', ...Object.entries(h).flat()];
      found = { ok: [...list(headers.ok), 'content-length', body.length], notModified: list(headers.notModified) };
      raw.set(headers, found);
    }
    return found;
  };

  const [framework] = server.listeners('request') as RequestListener[];
  if (framework === undefined) throw new Error('installFastPath: the server has no request listener yet');
  server.removeListener('request', framework);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method;
    const read = method === 'GET' || method === 'HEAD' ? table.get(req.url!) : undefined;
    if (read === undefined || !server.listening) return framework(req, res);
    const entity = read.entity();
    if (entity === undefined) return framework(req, res);
    const entry = read.representations(entity);
    const coding = entry.compressible ? negotiate(req.headers['accept-encoding']) : 'identity';
    const representation = entry[coding];
    const body = coding === 'identity' ? entity.body : (representation.body ??= readyVariant(entity, coding));
    if (body === undefined) return framework(req, res);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined) {
      const held = matchesEtag(ifNoneMatch, representation.etag)
        ? representation
        : coding !== 'identity' && matchesEtag(ifNoneMatch, entity.etag)
          ? entry.identity
          : undefined;
      if (held !== undefined) {
        const headers = rawOf(held, held.body ?? entity.body).notModified;
        headers[1] = requestId(req);
        res.writeHead(304, headers);
        res.end();
        return;
      }
    }
    const headers = rawOf(representation, body).ok;
    // The header list is written out within writeHead, so one list per representation serves every request.
    headers[1] = requestId(req);
    res.writeHead(200, headers);
    if (method === 'HEAD') res.end();
    else res.end(body);
  });
}
