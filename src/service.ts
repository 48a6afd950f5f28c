import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createApp, type App } from './app.js';
import type { Config } from './config.js';
import { startMetricsListener } from './http/plugins/observability.js';
import { buildServer } from './http/server.js';
import { compressionIdle, precompress } from './http/precompressed.js';
import { compactHeap } from './runtime/heap.js';
import { signalsCsv } from './snapshot/snapshot.js';
import type { SnapshotHolder } from './snapshot/holder.js';
import type { OpeningStore, Store } from './store/database.js';

export interface RunningService {
  app: FastifyInstance;
  store: Store;
  holder: SnapshotHolder;
  /** The application the server was built on (services, background jobs). */
  core: App;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  address: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** A store already being opened (the CLI starts it before loading the server's code); opened here otherwise. */
  opening?: OpeningStore;
}

/**
 * Serves the application over HTTP: builds it (createApp: store, period holder, services, background jobs), builds
 * the HTTP server while the store opens, opens the application (migrations, demo data, the first period), listens,
 * and then warms the period's indexes up in the background.
 */
export async function startService(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningService> {
  // Each start phase in a debug line ({"msg":"start phase","phase":…,"ms":…}); the benchmark reports them.
  // CPU time beside wall time: on a busy machine the wall time mostly measures the neighbours.
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let mark = { wall: performance.now(), cpu: cpuMs() };
  const phase = (name: string) => {
    const now = { wall: performance.now(), cpu: cpuMs() };
    logger.debug(
      { phase: name, ms: Math.round(now.wall - mark.wall), cpuMs: Math.round(now.cpu - mark.cpu) },
      'start phase',
    );
    mark = now;
  };
  // Node's own start and the loading of the code, up to here.
  logger.debug({ phase: 'load code', ms: Math.round(mark.wall), cpuMs: Math.round(mark.cpu) }, 'start phase');
  const core = await createApp(config, logger, { opening: options.opening, phase });
  let metricsServer: Server | undefined;
  let server: FastifyInstance | undefined;
  try {
    // The HTTP server needs neither the database nor the period: it is built while the embedded database's host
    // process starts (its queries wait for it), and the period is loaded into the holder after.
    server = await buildServer(core, core);
    // The most read bodies of each period are compressed (every coding, highest level) in the background. The
    // snapshot's JSON is started first, and a newly published period is not swapped in before it is done (it runs
    // while the period's indexes are built), so no read of a new period waits for it or gets it uncoded. The CSV
    // follows once it is rendered.
    core.holder.onSwap((snapshot) => precompress(snapshot.signalsJson), 'compressed snapshot JSON', {
      ahead: true,
      first: true,
    });
    core.holder.onSwap(function* (snapshot) {
      void precompress(yield* signalsCsv.warm(snapshot));
    }, 'compressed snapshot CSV');
    // Once a period's warm-up has settled (its indexes, export, series and compressed bodies built), one full
    // collection returns the memory building it left behind, and the previous period's (runtime/heap.ts).
    core.holder.onSwap((snapshot) => {
      void core.holder
        .settled()
        .then(() => compressionIdle())
        .then(() => {
          if (core.holder.current !== snapshot) return;
          const compaction = compactHeap();
          if ('skipped' in compaction)
            logger.debug(compaction, 'heap compaction skipped: the heap in use is too large');
          else logger.debug(compaction, 'heap compacted after the period warm-up');
        });
    }, 'heap compaction');
    phase('build server');
    await core.open(phase);
    await server.listen({ port: config.server.port, host: config.server.host });
    phase('listen');
    metricsServer = await startMetricsListener(config.metrics, logger);
    core.warmUp((index, ms, cpuMs, longestStepMs) =>
      logger.debug({ index, ms, cpuMs, longestStepMs }, 'per-period index built'),
    );
    const addr = server.server.address();
    const address =
      typeof addr === 'object' && addr
        ? `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`
        : core.urls.base;
    logger.info(
      { address, baseUrl: core.urls.base, database: core.store.mode, period: core.holder.current?.period.slug },
      'serving',
    );
    const http = server;
    // Node's closeIdleConnections (called by server.close() and by the sweep below) destroys a connection whose
    // response has ended even while its bytes are still on their way to a slow reader (a large body written at once,
    // such as the dataset export sent from memory), cutting the download short. Here a connection with no response
    // is destroyed, and one whose response has ended is ended: its last bytes arrive, then it closes.
    const sockets = new Set<Socket>();
    http.server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    http.server.closeIdleConnections = () => {
      for (const socket of sockets) {
        const response = (socket as Socket & { _httpMessage?: { finished: boolean } | null })._httpMessage;
        if (!response) socket.destroy();
        else if (response.finished && !socket.writableEnded) socket.end();
      }
    };
    let closing: Promise<void> | undefined;
    return {
      app: http,
      store: core.store,
      holder: core.holder,
      core,
      address,
      close() {
        closing ??= (async () => {
          // Stop accepting and let in-flight requests finish. A keep-alive connection whose response completes after
          // close() began would otherwise hold the server open until its idle timeout, so sweep idle ones meanwhile.
          const sweeper = setInterval(() => http.server.closeIdleConnections(), 100);
          try {
            await http.close();
          } finally {
            clearInterval(sweeper);
          }
          if (metricsServer) await new Promise((resolve) => metricsServer!.close(resolve));
          await core.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await server?.close().catch(() => {});
    metricsServer?.close();
    await core.close().catch(() => {});
    throw err;
  }
}
