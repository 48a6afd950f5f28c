import { once } from 'node:events';
import { Readable, type Transform } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { HistoryEntry, PeriodStartup } from '../domain/period-startup.js';
import type { SeriesTable } from '../domain/series.js';
import { deriveAsync } from './derive-async.js';
import { derive, type Snapshot } from './snapshot.js';

/**
 * The stored history as of a snapshot: what its source reads, limited to the periods the snapshot knows (a period
 * published after it was loaded waits for the next snapshot) and read once per snapshot. A failed read is forgotten,
 * so the next call tries again.
 */

function knownPeriods(snapshot: Snapshot): Set<string> {
  return new Set(snapshot.periods.map((p) => p.slug));
}

/** Every period's trending list, oldest period first, each in rank order. */
export const trendingHistory = deriveAsync(async (snapshot): Promise<PeriodStartup[]> => {
  const known = knownPeriods(snapshot);
  return (await snapshot.source.trendingHistory()).filter((r) => known.has(r.period));
});

/** Every startup's chart series over the periods the snapshot knows, read by lower-case organisation login. */
export const startupSeries = deriveAsync(async (snapshot): Promise<SeriesTable> =>
  (await snapshot.source.series()).keep(knownPeriods(snapshot)),
);

/** One entry per startup asked for, at most this many per period (least recently used dropped first). */
const startupHistories = derive(() => new LRUCache<string, Promise<HistoryEntry[]>>({ max: 2_000 }));

/** One startup's rows over the stored periods the snapshot knows, oldest first. */
export function startupHistory(snapshot: Snapshot, login: string): Promise<HistoryEntry[]> {
  const cache = startupHistories(snapshot);
  let pending = cache.get(login);
  if (pending) return pending;
  const known = knownPeriods(snapshot);
  pending = snapshot.source.startupHistory(login).then((rows) => rows.filter((r) => known.has(r.period)));
  cache.set(login, pending);
  const entry = pending;
  entry.catch(() => {
    if (cache.get(login) === entry) cache.delete(login);
  });
  return pending;
}

/**
 * /api/dataset.jsonl's body as of a snapshot: every startup of every period it knows (so the body matches its ETag
 * even while a newer period is being swapped in), oldest first, one JSON line per startup, a page of lines at a time.
 */
export async function* datasetLines(snapshot: Snapshot): AsyncGenerator<string> {
  for await (const records of snapshot.source.datasetPages(snapshot.periods.map((p) => p.slug))) {
    let chunk = '';
    for (const record of records) chunk += `${JSON.stringify(record)}\n`;
    yield chunk;
  }
}

/**
 * /api/dataset.jsonl rendered once per period, held only coded: the lines compressed once with gzip at its highest
 * level, and the length of the lines themselves. The identity body is never held (8 MB on the demo, 400 MB at 10,000
 * startups over 30 weeks): a client that accepts no coding gets the gzip copy decoded as it is sent (`datasetBody`).
 *
 * Unlike every other body it has no Brotli copy. The export grows with startups × weeks held, so its copies are the
 * largest thing the process keeps: at 10,000 startups over 30 weeks, 20.7 MB of gzip and 16.0 MB of Brotli (quality
 * 6). Brotli saved a bulk download about a quarter of its bytes for 44% more memory, and a Brotli encoder's CPU and
 * memory on the thread pool at every new period. The clients that accept Brotli (browsers, `curl --compressed`)
 * accept gzip too; one that accepts Brotli alone gets the lines uncoded.
 */
export interface DatasetExport {
  /** Bytes of the lines (the identity body's Content-Length). */
  length: number;
  gzip: Buffer;
}

/** The gzip copy's level: the highest. */
const EXPORT_GZIP = { level: 9 };

/** Collects what a compressor writes, once it has written all of it. */
function collected(compressor: Transform): Promise<Buffer> {
  const chunks: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    compressor.once('end', () => resolve(Buffer.concat(chunks)));
    compressor.once('error', reject);
  });
}

/**
 * The export of a snapshot, read from the store once (a page of lines per event-loop turn) and compressed as it is
 * read (on libuv's thread pool): every download of the period is then sent from memory, while PostgreSQL is down or
 * frozen too. Built by the warm-up after each swap; a failed read is forgotten, so the next request tries again.
 */
export const datasetExport = deriveAsync(async (snapshot): Promise<DatasetExport> => {
  const gzip = createGzip(EXPORT_GZIP);
  const coded = collected(gzip);
  // Awaited below; until then a compressor's error must not count as an unhandled rejection.
  coded.catch(() => {});
  let length = 0;
  try {
    for await (const chunk of datasetLines(snapshot)) {
      const bytes = Buffer.from(chunk, 'utf8');
      length += bytes.length;
      // Waiting for the compressor to drain keeps at most a page of lines queued in front of it.
      if (!gzip.write(bytes)) await once(gzip, 'drain');
    }
  } catch (err) {
    gzip.destroy();
    throw err;
  }
  gzip.end();
  return { length, gzip: await coded };
});

/** The lines of an export, decoded from its gzip copy as they are read. */
export function datasetBody(exported: DatasetExport): Readable {
  return Readable.from([exported.gzip]).pipe(createGunzip());
}
