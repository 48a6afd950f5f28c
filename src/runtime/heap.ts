/**
 * V8 settings for a process that serves requests: two for its heap, one for its property accesses. Called once, first
 * thing, by `signal-service serve` (and by every process that serves the same way), before the snapshot is built.
 *
 * Allocation-site pretenuring is turned off. V8 watches how many objects from each allocation site survive a
 * young-generation collection and, past a threshold, allocates that site's objects straight into the old generation
 * from then on, for the life of the process. A server answering bursts (pipelined or throttled clients: every
 * request's objects alive at once when a collection comes) can trip that threshold for sites whose objects live only
 * for one request; their objects then pile up in the old generation until a full collection. Measured at 10,000
 * startups (docs/architecture.md, "Runtime settings of the serving process"): some processes of the same build grew from about 350 MB to 450–580 MB
 * resident under the same load, and none did with pretenuring off. The snapshot's own long-lived objects are copied
 * out of the young generation once instead: a fresh demo start took 3.4–3.6 s to the first 200 either way.
 *
 * Young-generation collections run on the main thread alone (no parallel scavenge). A serving process's scavenges
 * find almost nothing alive (about 11 KB of 3.5 MB: the requests in flight), so there is no work to share, and V8's
 * helper threads only add waking, waiting and joining them; on a process given one core (the deployment runs one
 * instance per core) they wait for the main thread itself to be descheduled. Measured on the demo under lookups,
 * pinned to one core: 0.24 ms per scavenge on the main thread alone against 1.2–3.9 ms with the helpers, one
 * scavenge every 400 or so requests.
 *
 * A property access stays polymorphic for up to 16 object shapes (V8's default: 4). V8 compiles an access to a few
 * shape checks while it has seen at most that many shapes, and past them to its generic (megamorphic) look-up, on
 * every call from then on. Node's shared http, stream and events functions see every socket, stream and emitter of
 * the process: a bare server has few kinds, a serving process also has the database client's sockets, pool and
 * queries and the compression streams, and paid the generic look-up on every request for them (V8's IC log,
 * docs/benchmarks.md "Where the difference is"). V8 reads the limit each time an access meets a new shape, so
 * setting it first thing covers every access that meets its fifth shape afterwards.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * The V8 flags a serving process sets (the first two read at every young-generation collection, the third whenever
 * an access meets a new shape, so setting them after start takes effect from then on). Exported for the HTTP
 * benchmark, whose bare server runs with the same settings.
 */
export const SERVING_V8_FLAGS = [
  '--no-allocation-site-pretenuring',
  '--no-parallel-scavenge',
  '--max-valid-polymorphic-map-count=16',
] as const;

export function tuneV8ForServing(): void {
  for (const flag of SERVING_V8_FLAGS) v8.setFlagsFromString(flag);
}

/** What one compaction did: resident set and V8 heap before and after, in MB, and the pause it took. */
export interface Compaction {
  rssBeforeMb: number;
  rssAfterMb: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  pauseMs: number;
}

/** A compaction not made: the heap in use was larger than the limit, so its pause would have been too long. */
export interface SkippedCompaction {
  skipped: true;
  heapUsedMb: number;
  limitMb: number;
}

/**
 * The largest heap in use compacted at once. A full collection is one pause, about proportional to the heap: measured
 * at 50–100 ms on the demo (about 100 MB), 160–260 ms at 10,000 startups (340–650 MB in use) and 4 s at 100,000.
 * Above this, V8's own incremental collection (short pauses) is left to return the memory when it runs.
 */
export const MAX_COMPACTED_HEAP_MB = 768;

let fullCollection: (() => void) | undefined;

/**
 * A full, compacting garbage collection, now, unless the heap in use is above `limitMb`. Called by the serving
 * process once a new period's warm-up has settled (service.ts): building a period (its snapshot, corpora and indexes,
 * the compressed bodies) leaves garbage that has outlived the young generation, and the previous period is garbage
 * too; with little allocation after the warm-up, V8 schedules no full collection for a long time, so that memory stays
 * resident (about 25 MB of the demo's 200 MB, and about 150–400 MB at 10,000 startups, measured). One collection at
 * that point returns it. It pauses the event loop for as long as it takes, once per period; the pause is logged.
 *
 * Node offers no call for it without `--expose-gc` on its command line: the flag is set here instead, and V8's `gc`
 * function read from a fresh context (where the flag has now installed it), leaving the process's global untouched.
 */
export function compactHeap(limitMb = MAX_COMPACTED_HEAP_MB): Compaction | SkippedCompaction {
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  const heapUsedMb = mb(v8.getHeapStatistics().used_heap_size);
  if (heapUsedMb > limitMb) return { skipped: true, heapUsedMb, limitMb };
  // Measured before V8's gc is looked up: the first look-up creates a context, whose allocation may itself start a
  // collection, which would then be missing from the figures.
  const before = process.memoryUsage();
  fullCollection ??= exposedGc();
  const started = performance.now();
  fullCollection();
  const pauseMs = performance.now() - started;
  const after = process.memoryUsage();
  return {
    rssBeforeMb: mb(before.rss),
    rssAfterMb: mb(after.rss),
    heapBeforeMb: mb(before.heapTotal),
    heapAfterMb: mb(after.heapTotal),
    pauseMs: Math.round(pauseMs),
  };
}

function exposedGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
