import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';
import { PACKAGE_ROOT } from '../package-root.js';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in DATA_DIR.
 *
 * PGlite admits one process per data directory. So the first process to open a data directory takes an exclusive
 * lock on it and starts a host process (embedded-host.ts) that opens PGlite and serves it over the PostgreSQL wire
 * protocol on a Unix socket inside DATA_DIR (or a loopback port when the path is too long for a socket). Every user, the owner included, connects through that
 * socket with the ordinary `pg` driver; pglite-socket queues their messages and keeps a transaction's statements
 * together. A CLI command run beside a running server therefore talks to the server's database, and the server sees
 * its writes at once.
 */
export interface EmbeddedEndpoint {
  /** A directory (Unix socket) or a loopback address. */
  host: string;
  port: number;
  pid: number;
}

export interface EmbeddedHost {
  endpoint: EmbeddedEndpoint;
  close(): Promise<void>;
}

const ENDPOINT_FILE = 'embedded-db.json';

async function readEndpoint(dataDir: string): Promise<EmbeddedEndpoint | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(path.join(dataDir, ENDPOINT_FILE), 'utf8')) as EmbeddedEndpoint;
    return typeof parsed.host === 'string' && Number.isInteger(parsed.port) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The host process's entry point: beside this module under tsx (`src/store/embedded-host.ts`), else the bundle's
 * own entry (`dist/store/embedded-host.js`; this module itself is then inside a bundle file elsewhere in dist/).
 */
const HOST_MODULE = (() => {
  const beside = fileURLToPath(
    new URL(`./embedded-host${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url),
  );
  return existsSync(beside) ? beside : path.join(PACKAGE_ROOT, 'dist', 'store', 'embedded-host.js');
})();
/** Node options the host inherits: module loaders only (tsx under tests), not the server's heap or profiler flags. */
const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

function loaderArgs(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const name = arg.split('=')[0]!;
    if (!LOADER_FLAGS.has(name)) continue;
    kept.push(arg);
    if (!arg.includes('=') && i + 1 < execArgv.length) kept.push(execArgv[++i]!);
  }
  return kept;
}

type HostMessage = { type: 'ready'; host: string; port: number } | { type: 'failed'; message: string };

/**
 * Starts the host process (src/store/embedded-host.ts): PGlite and its socket server live there, apart from the
 * process that holds the lock. The serving process thus keeps neither PGlite's WebAssembly heap nor its work: a
 * pipeline publishing a period through the socket never blocks the event loop that answers HTTP.
 */
async function startHost(dataDir: string, release: () => Promise<void>): Promise<EmbeddedHost> {
  const child = fork(HOST_MODULE, [dataDir], {
    execArgv: loaderArgs(process.execArgv),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('error', () => {}); // a message to a host that is already gone; its exit is what we wait for
  let endpoint: EmbeddedEndpoint;
  try {
    const ready = await new Promise<{ host: string; port: number }>((resolve, reject) => {
      child.once('message', (message: HostMessage) =>
        message.type === 'ready' ? resolve(message) : reject(new Error(message.message)),
      );
      child.once('exit', (code) => reject(new Error(`the embedded database host exited with ${code}`)));
      child.once('error', reject);
    });
    endpoint = { host: ready.host, port: ready.port, pid: process.pid };
    await fs.writeFile(path.join(dataDir, ENDPOINT_FILE), JSON.stringify(endpoint), { mode: 0o600 });
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    throw err;
  }
  // Neither the child nor its channel keeps this process alive; if this process ends, the host closes itself.
  child.unref();
  child.channel?.unref();
  let closed = false;
  return {
    endpoint,
    async close() {
      if (closed) return;
      closed = true;
      if (child.exitCode === null && child.signalCode === null) {
        if (child.connected) child.send('close');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await fs.rm(path.join(dataDir, ENDPOINT_FILE), { force: true });
      await release();
    },
  };
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Opens the embedded database in `dataDir`: as its host when no other process holds it, otherwise by finding the
 * holder's endpoint. `host` is set only when this process became the owner (and must close it).
 */
export async function openEmbedded(
  dataDir: string,
  timeoutMs = 15_000,
): Promise<{ endpoint: EmbeddedEndpoint; host: EmbeddedHost | undefined }> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let release: (() => Promise<void>) | undefined;
    try {
      release = await lockfile.lock(dataDir, {
        lockfilePath: path.join(dataDir, '.owner.lock'),
        stale: 15_000,
        update: 5_000,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    }
    if (release) {
      try {
        const host = await startHost(dataDir, release);
        return { endpoint: host.endpoint, host };
      } catch (err) {
        await release().catch(() => {});
        throw err;
      }
    }
    const endpoint = await readEndpoint(dataDir);
    if (endpoint && processIsAlive(endpoint.pid)) return { endpoint, host: undefined };
    if (Date.now() > deadline) {
      throw new Error(`the embedded database in ${dataDir} is locked by another process that does not answer`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
