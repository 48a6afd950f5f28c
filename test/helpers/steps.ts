/**
 * Runs work in steps (src/snapshot/steps.ts) to the end and returns the most that `count` grew in one step: how
 * much of the work a single step did (a counter bumped by a getter, for instance).
 */
export function mostPerStep(steps: Iterator<unknown>, count: () => number): number {
  let most = 0;
  for (;;) {
    const before = count();
    const next = steps.next();
    most = Math.max(most, count() - before);
    if (next.done) return most;
  }
}
