/**
 * The fault suite's own processes: a PostgreSQL cluster (Debian's PostgreSQL 15 binaries, initdb + pg_ctl in a
 * temporary directory), a Redis server, and instances of the service (`src/cli/main.ts serve`, as `npm start` runs
 * it), each on a free port, so faults can be injected by signals: SIGSTOP/SIGCONT (frozen: not down, not answering),
 * SIGKILL, or a clean stop. Nothing here touches a database or Redis the machine already runs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT =
  process.env.FAULTS_SERVICE_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PG_BIN = process.env.FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = process.env.FAULTS_REDIS_SERVER ?? 'redis-server';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function onPath(command: string): boolean {
  if (command.includes('/')) return fs.existsSync(command);
  return (process.env.PATH ?? '').split(':').some((dir) => fs.existsSync(path.join(dir, command)));
}

/** Why the suite cannot run here (a missing binary), or false. */
export function missingBinaries(): string | false {
  const missing = [
    ...['initdb', 'pg_ctl', 'postgres']
      .filter((b) => !fs.existsSync(path.join(PG_BIN, b)))
      .map((b) => `${PG_BIN}/${b}`),
    ...(onPath(REDIS_SERVER) ? [] : [REDIS_SERVER]),
  ];
  return missing.length
    ? `fault suite skipped: needs ${missing.join(', ')} (PostgreSQL 15 server binaries and redis-server; set FAULTS_PG_BIN / FAULTS_REDIS_SERVER)`
    : false;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await what();
  while (!ok(value) && Date.now() < deadline) {
    await sleep(100);
    value = await what();
  }
  return value;
}

/** The process and its descendants (PostgreSQL's backends are children of the postmaster). */
function family(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    let children = '';
    try {
      for (const tid of fs.readdirSync(`/proc/${all[i]}/task`)) {
        children += ' ' + fs.readFileSync(`/proc/${all[i]}/task/${tid}/children`, 'utf8');
      }
    } catch {
      continue;
    }
    all.push(...children.split(/\s+/).filter(Boolean).map(Number));
  }
  return all;
}

export interface Faultable {
  /** SIGSTOP to the process and its children: it keeps its sockets but answers nothing. */
  freeze(): void;
  thaw(): void;
}

function faultable(pid: () => number): Faultable {
  return {
    freeze: () => family(pid()).forEach((p) => process.kill(p, 'SIGSTOP')),
    thaw: () => family(pid()).forEach((p) => process.kill(p, 'SIGCONT')),
  };
}

/** PostgreSQL's binaries refuse to run as root: as root, they run as the `postgres` user when it exists. */
function pgUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root without a postgres user: PostgreSQL cannot be started');
  }
}

export interface Postgres extends Faultable {
  url: string;
  /** A new database on this cluster (the service migrates it). */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startPostgres(): Promise<Postgres> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sigsvc-faults-pg-'));
  const data = path.join(dir, 'data');
  const user = pgUser();
  if (user) await fsp.chown(dir, user.uid, user.gid);
  const port = await freePort();
  const run = (bin: string, args: string[]) =>
    execFileSync(path.join(PG_BIN, bin), args, { stdio: 'pipe', ...(user ?? {}), cwd: dir });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const start = async () => {
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off -c max_connections=100`,
      'start',
    ]);
  };
  await start();
  const pid = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  return {
    url,
    ...faultable(pid),
    start,
    stop,
    async createDatabase(name) {
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async close() {
      try {
        family(pid()).forEach((p) => process.kill(p, 'SIGCONT'));
        await stop();
      } catch {
        // already stopped
      }
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer extends Faultable {
  url: string;
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sigsvc-faults-redis-'));
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  await until(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    (ok) => ok,
    10_000,
  );
  return {
    url,
    ...faultable(() => child.pid!),
    async close() {
      if (child.exitCode === null) {
        process.kill(child.pid!, 'SIGCONT');
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Instance extends Faultable {
  base: string;
  child: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** One instance of the service, ready (`/readyz` 200). */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sigsvc-faults-svc-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PERIOD_POLL_MS: '1000',
      ...env,
    },
    stdio: ['ignore', 'ignore', process.env.FAULTS_VERBOSE ? 'inherit' : 'ignore'],
  });
  const base = `http://127.0.0.1:${port}`;
  const ready = await until(
    () =>
      fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok || child.exitCode !== null,
    90_000,
  );
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the service did not become ready (exit ${child.exitCode})`);
  }
  return {
    base,
    child,
    ...faultable(() => child.pid!),
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      try {
        process.kill(child.pid!, 'SIGCONT');
      } catch {
        // gone
      }
      child.kill(signal);
      await exited;
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Milliseconds a call took, and its outcome: the status, or 'reset' when the connection failed. */
export async function timed(
  url: string,
  init?: RequestInit & { timeoutMs?: number },
): Promise<{ status: number | 'reset' | 'timeout'; ms: number; headers?: Headers; body?: string }> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(init?.timeoutMs ?? 20_000) });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - started, headers: res.headers, body };
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    return { status: timeout ? 'timeout' : 'reset', ms: performance.now() - started };
  }
}
