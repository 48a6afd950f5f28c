import type { AppContext } from '../app.js';
import type { Snapshot } from '../snapshot/snapshot.js';

export type { AppContext } from '../app.js';

/** The period a route answers from (a 503 problem while none is published yet). */
export function currentSnapshot(ctx: Pick<AppContext, 'holder'>): Snapshot {
  return ctx.holder.published();
}
