import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Rendered } from '../snapshot/snapshot.js';

/** Public reads: browsers keep 5 minutes, shared caches (CDNs) 1 hour. */
export const PUBLIC_CACHE = 'public, max-age=300, s-maxage=3600';

/** True when the request's If-None-Match names `etag` (weak comparison, as RFC 9110 prescribes for this header). */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
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
