/**
 * V8 settings for a process that serves requests. Called once, first thing, by `signal-service serve` (and by every
 * process that serves the same way), before the snapshot is built.
 *
 * Allocation-site pretenuring is turned off. V8 watches how many objects from each allocation site survive a
 * young-generation collection and, past a threshold, allocates that site's objects straight into the old generation
 * from then on, for the life of the process. A server answering bursts (pipelined or throttled clients: every
 * request's objects alive at once when a collection comes) can trip that threshold for sites whose objects live only
 * for one request; their objects then pile up in the old generation until a full collection. Measured at 10,000
 * startups (docs/architecture.md, "Runtime settings of the serving process"): some processes of the same build grew from about 350 MB to 450–580 MB
 * resident under the same load, and none did with pretenuring off. The snapshot's own long-lived objects are copied
 * out of the young generation once instead: a fresh demo start took 3.4–3.6 s to the first 200 either way.
 */
import v8 from 'node:v8';

export function tuneHeapForServing(): void {
  // Read by V8 at every young-generation collection, so setting it after start takes effect from the next one.
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
