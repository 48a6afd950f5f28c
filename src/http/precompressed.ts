import type { Rendered } from '../snapshot/snapshot.js';
import { codedEtag, compressOnce, isTextType, MIN_COMPRESSED_BYTES, type Coding } from './encoding.js';

/**
 * The coded variants of pre-rendered bodies (the snapshot's JSON and CSV, pages, documents, corpora, feeds, badges):
 * each body is compressed once per coding, at the highest level, off the event loop (zlib on the thread pool, one
 * body at a time so the pool stays free for the rest), and kept under the coded representation's strong ETag. A body
 * lives as long as its period; a new period's bodies have new ETags, and the oldest variants leave first once the
 * variants held pass VARIANT_BUDGET_BYTES.
 *
 * Keyed by ETag rather than by object, so a route that builds the same bytes twice still compresses them once.
 */
const VARIANT_BUDGET_BYTES = 24 * 1024 * 1024;

const variants = new Map<string, Buffer | Promise<Buffer>>();
let held = 0;
let queue: Promise<unknown> = Promise.resolve();

/** Whether a pre-rendered body is sent coded to clients that accept it: text, and not tiny. */
export function compressible(entity: Rendered): boolean {
  return entity.body.length >= MIN_COMPRESSED_BYTES && isTextType(entity.contentType);
}

/** The coded body when it is already compressed, else undefined (no work is started). */
export function readyVariant(entity: Rendered, coding: Coding): Buffer | undefined {
  const found = variants.get(codedEtag(entity.etag, coding));
  return Buffer.isBuffer(found) ? found : undefined;
}

/** The coded body, compressed now (queued behind earlier bodies) unless it already is or is on its way. */
export function variant(entity: Rendered, coding: Coding): Promise<Buffer> {
  const key = codedEtag(entity.etag, coding);
  const found = variants.get(key);
  if (found !== undefined) return Buffer.isBuffer(found) ? Promise.resolve(found) : (found as Promise<Buffer>);
  const body = entity.body;
  const compressed = queue.then(() => compressOnce(body, coding));
  queue = compressed.catch(() => {});
  variants.set(key, compressed);
  compressed.then(
    (bytes) => {
      if (variants.get(key) !== compressed) return;
      variants.set(key, bytes);
      held += bytes.length;
      evict(key);
    },
    () => variants.delete(key),
  );
  return compressed;
}

function evict(keep: string): void {
  for (const [key, value] of variants) {
    if (held <= VARIANT_BUDGET_BYTES) return;
    if (key === keep || !Buffer.isBuffer(value)) continue;
    variants.delete(key);
    held -= value.length;
  }
}

/**
 * Starts compressing a body in every coding (for bodies about to be asked for: a new period's snapshot). Resolves
 * once every coding is done or has failed (a failed one is compressed again on its next request); never rejects.
 */
export function precompress(entity: Rendered): Promise<void> {
  if (!compressible(entity)) return Promise.resolve();
  return Promise.allSettled((['br', 'gzip'] as const).map((coding) => variant(entity, coding))).then(() => undefined);
}

/** Resolves when every compression started so far has finished. */
export function compressionIdle(): Promise<void> {
  return queue.then(() => undefined);
}
