import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import lockfile from 'proper-lockfile';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in DATA_DIR.
 *
 * PGlite admits one process per data directory. So the first process to open a data directory takes an exclusive
 * lock on it, opens PGlite and serves it over the PostgreSQL wire protocol on a Unix socket inside DATA_DIR (or a
 * loopback port when the path is too long for a socket). Every user, the owner included, connects through that
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
const SOCKET_PORT = 5432;
const MAX_SOCKET_PATH = 100;

async function readEndpoint(dataDir: string): Promise<EmbeddedEndpoint | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(path.join(dataDir, ENDPOINT_FILE), 'utf8')) as EmbeddedEndpoint;
    return typeof parsed.host === 'string' && Number.isInteger(parsed.port) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function startHost(dataDir: string, release: () => Promise<void>): Promise<EmbeddedHost> {
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  const socketPath = path.join(dataDir, `.s.PGSQL.${SOCKET_PORT}`);
  const useUnixSocket = socketPath.length <= MAX_SOCKET_PATH;
  if (useUnixSocket) await fs.rm(socketPath, { force: true });
  const server = new PGLiteSocketServer(
    useUnixSocket
      ? { db, path: socketPath, maxConnections: 64 }
      : { db, host: '127.0.0.1', port: 0, maxConnections: 64 },
  );
  keepConnectionsApart(server, db);
  await server.start();
  const port = useUnixSocket ? SOCKET_PORT : Number(/:(\d+)$/.exec(server.getServerConn())?.[1]);
  const endpoint: EmbeddedEndpoint = { host: useUnixSocket ? dataDir : '127.0.0.1', port, pid: process.pid };
  await fs.writeFile(path.join(dataDir, ENDPOINT_FILE), JSON.stringify(endpoint), { mode: 0o600 });
  let closed = false;
  return {
    endpoint,
    async close() {
      if (closed) return;
      closed = true;
      await server.stop();
      await db.close();
      await fs.rm(path.join(dataDir, ENDPOINT_FILE), { force: true });
      await release();
    },
  };
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData(data: Uint8Array): void;
  resolve(bytes: number): void;
  reject(err: unknown): void;
}
interface MessageQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

/**
 * pglite-socket multiplexes its connections onto PGlite's single session one protocol message at a time, and keeps a
 * connection's messages together only inside a transaction. Outside one, an extended-protocol exchange (Parse, Bind,
 * Execute, Sync) of one connection can interleave with another's, and the other's Bind replaces the unnamed portal.
 * This widens the rule: once a connection has sent a message, only its messages run until PostgreSQL reports the
 * session idle again (ReadyForQuery with status 'I', which ends every exchange and every transaction).
 */
function keepConnectionsApart(server: PGLiteSocketServer, db: PGlite): void {
  const queue = (server as unknown as { queryQueue: MessageQueue }).queryQueue;
  let owner: number | null = null;
  queue.processQueue = async function processQueue(this: MessageQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === owner);
        if (index < 0) break; // the owner's next message has not arrived yet
        const item = this.queue.splice(index, 1)[0]!;
        let tail = new Uint8Array(0);
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                const joined = new Uint8Array(tail.length + data.length);
                joined.set(tail);
                joined.set(data, tail.length);
                tail = joined.slice(-6);
                item.onData(data);
              },
            }),
          );
        } catch (err) {
          owner = null;
          item.reject(err);
          continue;
        }
        const idle = tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[5] === IDLE;
        owner = idle && !db.isInTransaction() ? null : item.handlerId;
        this.lastHandlerId = item.handlerId;
        item.resolve(tail.length);
      }
    } finally {
      this.processing = false;
    }
  };
  const clear = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async function clearTransactionIfNeeded(handlerId: number) {
    if (owner === handlerId) {
      owner = null;
      if (db.isInTransaction()) await db.exec('ROLLBACK');
    }
    await clear(handlerId);
    await queue.processQueue();
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
