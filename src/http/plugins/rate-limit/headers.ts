/** Whole seconds, at least one, of a wait in milliseconds. */
export const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A policy's name in the RateLimit headers: the class, or the class's reserve. */
export const policyName = (cls: string, reserve: boolean) => (reserve ? `"${cls}-burst"` : `"${cls}"`);

/** RateLimit-Policy of a class: its steady window, and its reserve's when it has one (`reserve` points, else 0). */
export function policyHeader(cls: string, perMinute: number, reserve: number, reserveWindowSeconds: number): string {
  const steady = `${policyName(cls, false)};q=${perMinute};w=60`;
  return reserve > 0 ? `${steady}, ${policyName(cls, true)};q=${reserve};w=${reserveWindowSeconds}` : steady;
}

/** RateLimit of a decision: the policy that answered, its remaining points and its reset in whole seconds. */
export const stateHeader = (policy: string, remaining: number, ms: number) =>
  `${policy};r=${remaining};t=${seconds(ms)}`;

/** The same RateLimit state with another reset. */
export const withReset = (state: string, resetSeconds: number) => state.replace(/t=\d+$/, `t=${resetSeconds}`);
