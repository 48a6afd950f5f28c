import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Rendered } from '../snapshot/snapshot.js';
import { codedEtag, negotiate, withAcceptEncoding, type Coding, type Encoding, type Offered } from './encoding.js';
import { compressible, readyVariant } from './precompressed.js';

/** Public reads: browsers keep 5 minutes, shared caches (CDNs) 1 hour. */
export const PUBLIC_CACHE = 'public, max-age=300, s-maxage=3600';

/**
 * True when the request's If-None-Match names `etag` (weak comparison, as RFC 9110 prescribes for this header), or
 * the tag of the coded representation the request would get (`"abc-br"`, see plugins/compression.ts) among the
 * codings `offered` (see encoding.ts `negotiate`).
 */
export function notModified(request: FastifyRequest, etag: string, offered: Offered = 'all'): boolean {
  const coding = negotiate(request.headers['accept-encoding'], offered);
  return heldEtag(request.headers['if-none-match'], etag, coding) !== undefined;
}

export function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  if (header === opaque) return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque;
  });
}

// Any route's reply: the body is bytes, so the route's typed response schema does not apply.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyReply = FastifyReply<any, any, any, any, any, any, any, any>;

/**
 * Replies whose coded body is still being compressed (the first request for a body in a coding): the route sends
 * the identity body, and the compression hook (plugins/compression.ts) swaps in the coded one when it is ready.
 */
export const pendingVariants = new WeakMap<object, { entity: Rendered; coding: Coding }>();

/**
 * Which of the tags of a body (identity tag `etag`) the client holds (If-None-Match) is current: the one of the coding
 * it gets, the identity one, or none.
 */
function heldEtag(ifNoneMatch: string | undefined, etag: string, coding: Encoding): string | undefined {
  if (ifNoneMatch === undefined || ifNoneMatch === '') return undefined;
  if (coding !== 'identity') {
    const coded = codedEtag(etag, coding);
    if (matchesEtag(ifNoneMatch, coded)) return coded;
  }
  return matchesEtag(ifNoneMatch, etag) ? etag : undefined;
}

/**
 * Sends a pre-rendered body with its strong ETag, or 304 when the client already has it. A text body is sent Brotli-
 * or gzip-coded when the client accepts it (`Vary: Accept-Encoding`, one ETag per coding), compressed once.
 */
export function sendRendered(
  request: FastifyRequest,
  reply: AnyReply,
  entity: Rendered,
  headers: Record<string, string> = {},
  cacheControl = PUBLIC_CACHE,
): void {
  const isCompressible = compressible(entity);
  // The coding sent: identity when the body is not compressible or the client accepts no coding we offer.
  const coding = isCompressible ? negotiate(request.headers['accept-encoding']) : 'identity';
  reply.headers(headers).header('cache-control', cacheControl);
  if (isCompressible) reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
  const held = heldEtag(request.headers['if-none-match'], entity.etag, coding);
  if (held !== undefined) {
    reply.header('etag', held).code(304).send();
    return;
  }
  reply.header('content-type', entity.contentType);
  if (coding === 'identity') {
    reply.header('etag', entity.etag).send(entity.body);
    return;
  }
  reply.header('etag', codedEtag(entity.etag, coding));
  const ready = readyVariant(entity, coding);
  if (ready) {
    reply.header('content-encoding', coding).send(ready);
    return;
  }
  pendingVariants.set(reply, { entity, coding });
  reply.send(entity.body);
}

/** The response headers of one representation of a pre-rendered body on one route, built once. */
export interface PreparedHeaders {
  ok: Record<string, string>;
  notModified: Record<string, string>;
  etag: string;
  /** The coded body, once compressed (identity: the body itself). */
  body: Buffer | undefined;
}

export interface Prepared {
  compressible: boolean;
  identity: PreparedHeaders;
  br: PreparedHeaders;
  gzip: PreparedHeaders;
}

/**
 * The representations of pre-rendered bodies sent with one route's fixed headers and cache policy: per body, its
 * identity, Brotli and gzip response headers (for the 200 and for the 304), built the first time the body is sent and
 * kept as long as the body lives. Shared by `renderedSender` and the fast path (fast-path.ts), so both send the same.
 */
export function representations(
  headers: Record<string, string> = {},
  cacheControl = PUBLIC_CACHE,
): (entity: Rendered) => Prepared {
  const prepared = new WeakMap<Rendered, Prepared>();
  const prepare = (entity: Rendered): Prepared => {
    const isCompressible = compressible(entity);
    const vary: Record<string, string> = isCompressible ? { vary: withAcceptEncoding(headers.vary) } : {};
    const one = (coding: Encoding): PreparedHeaders => {
      const etag = coding === 'identity' ? entity.etag : codedEtag(entity.etag, coding);
      const notModified = { ...headers, ...vary, etag, 'cache-control': cacheControl };
      const ok: Record<string, string> = { ...notModified, 'content-type': entity.contentType };
      if (coding !== 'identity') ok['content-encoding'] = coding;
      return { ok, notModified, etag, body: coding === 'identity' ? entity.body : undefined };
    };
    const entry = { compressible: isCompressible, identity: one('identity'), br: one('br'), gzip: one('gzip') };
    prepared.set(entity, entry);
    return entry;
  };
  return (entity) => prepared.get(entity) ?? prepare(entity);
}

/** The coding a request gets of a prepared body: identity unless the body is compressible and a coding is accepted. */
export function codingOf(entry: Prepared, acceptEncoding: string | undefined): Encoding {
  return entry.compressible ? negotiate(acceptEncoding) : 'identity';
}

/**
 * The representation the client already holds (If-None-Match) when it is current, so the answer is a 304: the one in
 * the coding it gets, or the identity one (a client that held the plain body before it accepted a coding).
 */
export function heldRepresentation(
  entry: Prepared,
  entity: Rendered,
  coding: Encoding,
  ifNoneMatch: string | undefined,
): PreparedHeaders | undefined {
  if (ifNoneMatch === undefined) return undefined;
  if (matchesEtag(ifNoneMatch, entry[coding].etag)) return entry[coding];
  return coding !== 'identity' && matchesEtag(ifNoneMatch, entity.etag) ? entry.identity : undefined;
}

/** The body of a representation: the coded bytes once they are compressed (undefined until then). */
export function bodyOf(entity: Rendered, representation: PreparedHeaders, coding: Encoding): Buffer | undefined {
  return coding === 'identity' ? entity.body : (representation.body ??= readyVariant(entity, coding));
}

/** Sends one of a route's pre-rendered bodies; `representations` are its prepared headers (the fast path's too). */
export type RenderedSender = ((request: FastifyRequest, reply: AnyReply, entity: Rendered) => void) & {
  representations: (entity: Rendered) => Prepared;
};

/**
 * `sendRendered` for the hot reads: the route's fixed headers (`headers`: its Link, the common CORS and security
 * headers when the route opts out of the per-request hook) are merged with each body's ETag, cache policy, content
 * type and coding once per body and coding, the first time it is sent, and kept as long as the body lives (the
 * snapshot's period). A request then costs a header-object copy, a coding look-up and an ETag test.
 */
export function renderedSender(headers: Record<string, string> = {}, cacheControl = PUBLIC_CACHE): RenderedSender {
  const prepared = representations(headers, cacheControl);
  const send = (request: FastifyRequest, reply: AnyReply, entity: Rendered) => {
    const entry = prepared(entity);
    const coding = codingOf(entry, request.headers['accept-encoding']);
    const held = heldRepresentation(entry, entity, coding, request.headers['if-none-match']);
    if (held !== undefined) {
      reply.code(304).headers(held.notModified).send();
      return;
    }
    const representation = entry[coding];
    const body = bodyOf(entity, representation, coding);
    if (body !== undefined) {
      reply.headers(representation.ok).send(body);
      return;
    }
    // Not compressed yet: the hook sends the coded body once it is (and sets the content coding then).
    const { 'content-encoding': _coding, ...rest } = representation.ok;
    pendingVariants.set(reply, { entity, coding: coding as Coding });
    reply.headers(rest).send(entity.body);
  };
  return Object.assign(send, { representations: prepared });
}
