/**
 * An experiment's preload for the bare server, never its baseline: `BENCH_BARE_IMPORT=bench/emitter-shapes.mjs npm
 * run bench http`. Before the bare server listens, it makes and uses objects of 60 subclasses each of EventEmitter,
 * Readable and Writable, and of Node's duplex streams (PassThrough, Transform), as an application's libraries do
 * (database and cache clients, compressors, parsers), and does nothing per request. Node's http server runs on the
 * same event and stream functions, whose inline caches then hold many object shapes instead of a few; the bare
 * server's CPU per request with this preload measures what that costs, apart from any work the service does per
 * request (docs/benchmarks.md).
 */
import { EventEmitter } from 'node:events';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';

const kept = [];
for (let kind = 0; kind < 60; kind++) {
  const Emitter = class extends EventEmitter {
    constructor() {
      super();
      this[`emitter${kind}`] = kind;
    }
  };
  const Source = class extends Readable {
    constructor() {
      super({ read() {} });
      this[`source${kind}`] = kind;
    }
  };
  const Sink = class extends Writable {
    constructor() {
      super({ write: (_chunk, _encoding, done) => done() });
      this[`sink${kind}`] = kind;
    }
  };
  for (let i = 0; i < 20; i++) {
    const emitter = new Emitter();
    emitter.on('event', () => {});
    emitter.once('other', () => {});
    emitter.emit('event', i);
    emitter.removeAllListeners('other');
    const source = new Source();
    source.on('data', () => {});
    source.push('chunk');
    source.push(null);
    const sink = new Sink();
    sink.write('chunk');
    sink.end();
    kept.push(emitter, source, sink);
  }
}
for (let i = 0; i < 200; i++) {
  const through = new PassThrough();
  through.on('data', () => {});
  through.end('chunk');
  const transform = new Transform({ transform: (chunk, _encoding, done) => done(null, chunk) });
  transform.on('data', () => {});
  transform.end('chunk');
}
globalThis.emitterShapesKept = kept;
