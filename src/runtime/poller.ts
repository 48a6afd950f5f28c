/** A background job's handle: run a pass now, or stop (waiting for the pass under way). */
export interface Poller {
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`, and at once when kicked, never two passes at a time. A kick that arrives during a
 * pass, or a pass that says more work may be due (it returns true: a full batch), runs one more pass right after, so
 * work that arrived mid-pass does not wait for the next tick. A pass that throws is reported to `onError` and the
 * poller goes on. The timer does not keep the process alive. The mail outbox and the webhook queue run on it.
 */
export function startPoller(
  pass: () => Promise<boolean | void>,
  intervalMs: number,
  onError: (err: unknown) => void,
): Poller {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          if ((await pass()) === true) again = true;
        } catch (err) {
          onError(err);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
