/**
 * Several instances of the service behind one port (the cluster module: the primary hands each new connection to
 * the next worker, round-robin). Configuration from the environment, as `signal-service serve`.
 * Usage: tsx bench/cluster-serve.ts   (BENCH_WORKERS, default 2). Prints "ready" when every worker listens.
 */
import cluster from 'node:cluster';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { tuneV8ForServing } from '../src/runtime/heap.js';
import { startService } from '../src/service.js';

const workers = Number(process.env.BENCH_WORKERS ?? 2);
if (cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('message', (message) => {
      if (message === 'listening' && ++listening === workers) process.stdout.write('ready\n');
    });
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 2000).unref();
  });
} else {
  tuneV8ForServing();
  const config = loadConfig();
  const service = await startService(config, createLogger(config.server));
  process.send!('listening');
  process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
}
