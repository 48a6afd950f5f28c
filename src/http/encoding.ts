import {
  constants,
  brotliCompress,
  brotliCompressSync,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib';
import { promisify } from 'node:util';
import type { Transform } from 'node:stream';

/**
 * Content codings (RFC 9110 §8.4, §12.5.3): which coding a request accepts, the ETag of each coded representation,
 * and the compressors. Brotli and gzip are offered; Brotli wins a tie (it is smaller on every text we send).
 */
export type Coding = 'br' | 'gzip';
export type Encoding = Coding | 'identity';
/** The codings a body is offered in: every one, or gzip only (the dataset export). */
export type Offered = 'all' | 'gzip';

/** Bodies smaller than this are sent as they are: the coding's framing eats most of what it would save. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Text media types (JSON, XML, CSV, HTML, SVG, NDJSON…). Event streams are excluded: a compressor would hold events. */
const TEXT_TYPE =
  /^\s*(?:text\/(?!event-stream)|image\/svg\+xml|application\/(?:json|javascript|xml|x-ndjson|[\w.-]+\+(?:json|xml))\b)/i;

export function isTextType(contentType: unknown): boolean {
  return typeof contentType === 'string' && TEXT_TYPE.test(contentType);
}

const QVALUE = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The coding to send for an Accept-Encoding value: the accepted one (br, gzip or its alias x-gzip, or any of them
 * through `*`) with the highest q-value, Brotli on a tie; `identity` when none is accepted, when the header is absent,
 * or when `identity` itself is listed with a higher q-value. A member with a malformed q-value is ignored.
 *
 * `offered` narrows the codings a representation exists in (the dataset export is held in gzip only): a coding not
 * offered is never chosen, whatever its q-value.
 */
export function negotiate(header: string | undefined, offered: Offered = 'all'): Encoding {
  if (header === undefined || header === '') return 'identity';
  let q = negotiated.get(header);
  if (q === undefined) {
    q = qualities(header);
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, q);
  }
  const br = offered === 'all' ? q.br : 0;
  const best = Math.max(br, q.gzip);
  if (best <= 0) return 'identity';
  if (q.identity !== undefined && q.identity > best) return 'identity';
  return br >= q.gzip ? 'br' : 'gzip';
}

/** What an Accept-Encoding value accepts: each coding's q-value (`*` standing in for an unlisted one). */
interface Qualities {
  br: number;
  gzip: number;
  identity: number | undefined;
}

/** Clients send a handful of distinct Accept-Encoding values: each is parsed once. */
const NEGOTIATED_MAX = 256;
const negotiated = new Map<string, Qualities>();

function qualities(header: string): Qualities {
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  let identity: number | undefined;
  for (const member of header.split(',')) {
    const [name, ...params] = member.split(';').map((p) => p.trim());
    const coding = name!.toLowerCase();
    if (coding === '') continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      if (!/^q=/i.test(param)) continue;
      const m = QVALUE.exec(param);
      if (!m) valid = false;
      else q = Number(m[1]);
    }
    if (!valid) continue;
    if (coding === 'br') br = Math.max(br ?? 0, q);
    else if (coding === 'gzip' || coding === 'x-gzip') gz = Math.max(gz ?? 0, q);
    else if (coding === '*') any = q;
    else if (coding === 'identity') identity = q;
  }
  return { br: br ?? any ?? 0, gzip: gz ?? any ?? 0, identity };
}

/** The ETag of a coded representation: the identity tag with the coding appended (`"abc"` → `"abc-br"`). */
export function codedEtag(etag: string, coding: Coding): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** `Vary` with `Accept-Encoding` added once to what a route already set. */
export function withAcceptEncoding(vary: unknown): string {
  if (typeof vary !== 'string' || vary === '') return 'accept-encoding';
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return vary;
  return `${vary}, accept-encoding`;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The highest levels, for bodies compressed once (per period) in the background: Brotli 11 (about 0.5 MB/s, so
 * larger bodies get 9, which is about 20 times faster for a few percent more bytes), gzip 9.
 */
export function compressOnce(body: Buffer, coding: Coding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: 9 });
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: body.length <= 1 << 20 ? 11 : 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window no larger than the body: the encoder's buffers (tens of MB at the default window and level 11) are
      // sized by it, and memory a thread-pool thread allocated stays with the process (glibc keeps its arenas).
      [constants.BROTLI_PARAM_LGWIN]: windowBits(body.length),
    },
  });
}

function windowBits(size: number): number {
  return Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 1)) + 1),
  );
}

/** Per-request levels, for bodies computed per request: fast, and still most of the saving. */
const DYNAMIC_BROTLI = {
  params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 5 },
};
const DYNAMIC_GZIP = { level: 6 };
/** Above this, a per-request body is compressed on the thread pool rather than on the event loop. */
const SYNC_MAX_BYTES = 64 * 1024;

export function compressPerRequest(body: Buffer | string, coding: Coding): Buffer | Promise<Buffer> {
  const size = typeof body === 'string' ? body.length : body.length;
  if (size <= SYNC_MAX_BYTES) {
    return coding === 'br' ? brotliCompressSync(body, DYNAMIC_BROTLI) : gzipSync(body, DYNAMIC_GZIP);
  }
  return coding === 'br' ? brotliAsync(body, DYNAMIC_BROTLI) : gzipAsync(body, DYNAMIC_GZIP);
}

/** A compressor for a streamed body: each chunk is compressed as it passes. */
export function compressingStream(coding: Coding): Transform {
  return coding === 'br' ? createBrotliCompress(DYNAMIC_BROTLI) : createGzip(DYNAMIC_GZIP);
}
