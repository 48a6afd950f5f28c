/**
 * `signal-service serve` as a child process, for the tests that need a real process (signals, exit codes).
 *
 * The child binds port 0 and the address is read from its own "serving" log line, so two suites running at once can
 * never pick the same port, nor one that an outgoing connection holds. It is ready once its /readyz answers 200; a
 * child that exits first, or is not ready in time, fails with the end of what it wrote to stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServeChild {
  child: ChildProcess;
  base: string;
  /** Everything the child has written to stderr so far. */
  stderr(): string;
}

export async function serveChild(env: Record<string, string>, readyWithinMs = 90_000): Promise<ServeChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Logs are JSON lines on stderr; stdout carries nothing for serve but is drained all the same.
  let errors = '';
  child.stdout!.resume();
  const lines = createInterface({ input: child.stderr! });
  lines.on('line', (line) => (errors += `${line}\n`));
  const failure = (why: string) => new Error(`serve ${why}; its stderr ends:\n${errors.slice(-2000) || '(nothing)'}`);
  const deadline = Date.now() + readyWithinMs;
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(failure(`did not log its address within ${readyWithinMs} ms`)),
        readyWithinMs,
      );
      const onExit = (code: number | null) => reject(failure(`exited with ${code} before serving`));
      child.once('exit', onExit);
      // Every line is read to the end of the process, so a busy child never blocks on a full pipe.
      lines.on('line', (line) => {
        if (!line.includes('"serving"')) return;
        const address = (JSON.parse(line) as { address?: string }).address;
        if (!address) return;
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(address);
      });
    });
    for (;;) {
      const ok = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw failure(`exited with ${child.exitCode} before it was ready`);
      if (Date.now() > deadline) throw failure(`was not ready within ${readyWithinMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { child, base, stderr: () => errors };
  } catch (err) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw err;
  }
}
