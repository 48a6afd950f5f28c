import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Rendered } from '../snapshot/snapshot.js';

/** Public reads: browsers keep 5 minutes, shared caches (CDNs) 1 hour. */
export const PUBLIC_CACHE = 'public, max-age=300, s-maxage=3600';

/** True when the request's If-None-Match names `etag` (weak comparison, as RFC 9110 prescribes for this header). */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return matchesEtag(header, etag);
}

function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/** Sends a pre-rendered body with its strong ETag, or 304 when the client already has it. */
// Any route's reply: the body is bytes, so the route's typed response schema does not apply.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyReply = FastifyReply<any, any, any, any, any, any, any, any>;

export function sendRendered(
  request: FastifyRequest,
  reply: AnyReply,
  entity: Rendered,
  headers: Record<string, string> = {},
  cacheControl = PUBLIC_CACHE,
): void {
  reply.headers(headers).header('etag', entity.etag).header('cache-control', cacheControl);
  if (notModified(request, entity.etag)) {
    reply.code(304).send();
    return;
  }
  reply.header('content-type', entity.contentType).send(entity.body);
}

/** The response headers of one pre-rendered body on one route, built once: for its 200 and for its 304. */
interface PreparedHeaders {
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

export type RenderedSender = (request: FastifyRequest, reply: AnyReply, entity: Rendered) => void;

/**
 * `sendRendered` for the hot reads: the route's fixed headers (`headers`: its Link, the common CORS and security
 * headers when the route opts out of the per-request hook) are merged with each body's ETag, cache policy and
 * content type once per body, the first time it is sent, and kept as long as the body lives (the snapshot's
 * period). A request then costs one header-object copy and one ETag test.
 */
export function renderedSender(headers: Record<string, string> = {}, cacheControl = PUBLIC_CACHE): RenderedSender {
  const prepared = new WeakMap<Rendered, PreparedHeaders>();
  const prepare = (entity: Rendered): PreparedHeaders => {
    const notModified = { ...headers, etag: entity.etag, 'cache-control': cacheControl };
    const entry = { ok: { ...notModified, 'content-type': entity.contentType }, notModified };
    prepared.set(entity, entry);
    return entry;
  };
  return (request, reply, entity) => {
    const entry = prepared.get(entity) ?? prepare(entity);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, entity.etag)) {
      reply.code(304).headers(entry.notModified).send();
      return;
    }
    reply.headers(entry.ok).send(entity.body);
  };
}
