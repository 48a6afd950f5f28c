import type { App } from '../app.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { unavailable } from './problem.js';

/**
 * What every route plugin receives: the application built by the composition root (configuration, store, the
 * current period's holder, the services and the logger). Routes log through `log`, naming the request id (`reqId`)
 * themselves: Fastify has no logger (see buildServer), so `request.log` logs nothing.
 */
export type AppContext = Pick<App, 'config' | 'store' | 'holder' | 'log' | 'services'>;

export function currentSnapshot(ctx: Pick<AppContext, 'holder'>): Snapshot {
  const snapshot = ctx.holder.current;
  if (!snapshot)
    throw unavailable('No period has been published yet. Run `signal-service pipeline run` or enable DEMO_DATA.');
  return snapshot;
}
