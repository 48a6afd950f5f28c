import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag, pendingVariants } from '../conditional.js';
import {
  codedEtag,
  compressingStream,
  compressPerRequest,
  isTextType,
  MIN_COMPRESSED_BYTES,
  negotiate,
  withAcceptEncoding,
  type Coding,
  type Offered,
} from '../encoding.js';
import { variant } from '../precompressed.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The codings the route's bodies are offered in (encoding.ts `negotiate`): every coding unless set. A route held
     * in gzip only (the dataset export) sends a client that accepts no gzip its identity body, never a per-request
     * Brotli of it.
     */
    codings?: Offered;
  }
}

/**
 * How long the first request for a body in a coding waits for its compression before it is sent the identity body
 * instead. Compressions run one at a time at the highest level: a 50 MB snapshot at 100,000 startups takes about 10 s
 * of Brotli, and a page's body can be queued behind it. The compression goes on, and later requests get it.
 */
const PENDING_WAIT_MS = 250;

export interface CompressionOptions {
  /** `PENDING_WAIT_MS` unless set (tests). */
  pendingWaitMs?: number;
}

/**
 * Content coding of every text response the client accepts coded (`Accept-Encoding`: Brotli preferred, else gzip):
 *
 * - Pre-rendered bodies (conditional.ts) are compressed once per body, at the highest level, off the event loop
 *   (precompressed.ts); their routes send the coded bytes themselves. Only the first request for a body in a coding
 *   passes here, to wait for its compression, at most PENDING_WAIT_MS (then it gets the identity body).
 * - Bodies built per request (search, answers, problem documents…) of at least MIN_COMPRESSED_BYTES are compressed
 *   here at a fast level; a streamed body is compressed as it streams. A body a route already coded is left alone.
 *
 * A coded response carries `Vary: Accept-Encoding` and its own strong ETag (the identity tag with `-br` or `-gzip`
 * appended), so a cache never serves one coding for another and a 304 names the representation the client holds.
 */
export function registerCompression(app: FastifyInstance, options: CompressionOptions = {}): void {
  const pendingWaitMs = options.pendingWaitMs ?? PENDING_WAIT_MS;
  app.addHook('onSend', (request, reply, payload, done) => {
    const pending = pendingVariants.get(reply);
    if (pending !== undefined) {
      pendingVariants.delete(reply);
      let answered = false;
      // The identity body, under its own tag: when the coded one is not ready in time, or its compression failed
      // (never an error response for that).
      const identity = () => {
        if (answered) return;
        answered = true;
        reply.header('etag', pending.entity.etag);
        done(null, payload);
      };
      const timer = setTimeout(identity, pendingWaitMs);
      variant(pending.entity, pending.coding).then(
        (bytes) => {
          clearTimeout(timer);
          if (answered) return;
          answered = true;
          reply.header('content-encoding', pending.coding);
          done(null, bytes);
        },
        () => {
          clearTimeout(timer);
          identity();
        },
      );
      return;
    }
    const status = reply.statusCode;
    if (status === 304) return notModifiedTag(request, reply, done, payload);
    if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return done(null, payload);
    if (status === 204 || status < 200) return done(null, payload);
    if (!isTextType(reply.getHeader('content-type'))) return done(null, payload);
    const stream = typeof (payload as Readable).pipe === 'function';
    const size = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : stream ? Infinity : 0;
    if (size < MIN_COMPRESSED_BYTES) return done(null, payload);
    reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
    const coding = negotiate(request.headers['accept-encoding'], request.routeOptions.config.codings);
    if (coding === 'identity') return done(null, payload);
    codeTag(reply, coding);
    reply.header('content-encoding', coding);
    if (stream) {
      reply.removeHeader('content-length');
      const compressor = compressingStream(coding);
      const source = payload as Readable;
      source.on('error', (err) => compressor.destroy(err));
      return done(null, source.pipe(compressor));
    }
    const compressed = compressPerRequest(payload as string | Buffer, coding);
    if (Buffer.isBuffer(compressed)) return done(null, compressed);
    compressed.then(
      (bytes) => done(null, bytes),
      (err: Error) => done(err),
    );
  });
}

type Done = (err: Error | null, payload?: unknown) => void;

/** A coded response's ETag: its own, derived from the identity one (weak tags stay weak). */
function codeTag(reply: FastifyReply, coding: Coding): void {
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.endsWith('"')) reply.header('etag', codedEtag(etag, coding));
}

/** A 304 names the tag the client holds: the coded one when that is what it sent (conditional.ts `notModified`). */
function notModifiedTag(request: FastifyRequest, reply: FastifyReply, done: Done, payload: unknown): void {
  const etag = reply.getHeader('etag');
  const ifNoneMatch = request.headers['if-none-match'];
  if (typeof etag === 'string' && etag.endsWith('"') && ifNoneMatch !== undefined) {
    const coding = negotiate(request.headers['accept-encoding'], request.routeOptions.config.codings);
    if (coding !== 'identity' && !etag.endsWith(`-${coding}"`)) {
      const coded = codedEtag(etag, coding);
      if (matchesEtag(ifNoneMatch, coded)) {
        reply.header('etag', coded).header('vary', withAcceptEncoding(reply.getHeader('vary')));
      }
    }
  }
  done(null, payload);
}
