import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { SnapshotHolder } from '../snapshot/holder.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Store } from '../store/database.js';
import { unavailable } from './problem.js';

/** What every route plugin receives: configuration, the store, the current snapshot and the service's logger. */
export interface AppContext {
  config: Config;
  store: Store;
  holder: SnapshotHolder;
  /**
   * The service's logger. Routes log through it, naming the request id (`reqId`) themselves: Fastify has no logger
   * (see buildServer), so `request.log` logs nothing.
   */
  log: Logger;
}

export function currentSnapshot(ctx: AppContext): Snapshot {
  const snapshot = ctx.holder.current;
  if (!snapshot)
    throw unavailable('No period has been published yet. Run `signal-service pipeline run` or enable DEMO_DATA.');
  return snapshot;
}
