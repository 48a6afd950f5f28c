/** Reading the service's JSON log (pino lines, as a benchmark collects them from its stdout) for what it reports. */

/**
 * The messages that end a period's background work: the heap compaction after the warm-up (service.ts), or its
 * skipping when the heap in use is too large.
 */
export const PERIOD_WORK_DONE = [
  'heap compacted after the period warm-up',
  'heap compaction skipped: the heap in use is too large',
] as const;

/** Lines of the service's JSON log with this message. */
export function logged(log: readonly string[], msg: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const l of log) {
    if (!l.includes(msg)) continue;
    try {
      const entry = JSON.parse(l) as Record<string, unknown>;
      if (entry.msg === msg) out.push(entry);
    } catch {
      // not a log line
    }
  }
  return out;
}

/** The first log line with one of these messages, once the service has written it (undefined after `timeoutMs`). */
export async function firstLogged(
  log: readonly string[],
  messages: readonly string[],
  timeoutMs: number,
): Promise<Record<string, unknown> | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = messages.map((msg) => logged(log, msg)[0]).find((entry) => entry !== undefined);
    if (found !== undefined || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}
