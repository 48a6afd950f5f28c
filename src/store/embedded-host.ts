/**
 * The embedded database's host process, started by embedded.ts for the process that holds DATA_DIR's lock:
 * opens PGlite in DATA_DIR and serves it over the PostgreSQL wire protocol on a Unix socket inside DATA_DIR (or a
 * loopback port when that path is too long for a socket). Tells its parent the address, closes the database
 * cleanly when asked or when the parent goes away.
 *
 * PGlite runs with 16 MB of shared buffers instead of PostgreSQL's 128 MB: the tables are read through the file
 * system (and its page cache) anyway, and the service reads each period once into memory, so a larger buffer pool
 * only made the WebAssembly heap larger (about 125 MB more resident memory, measured; see docs/architecture.md).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { clusterDir, clusterInitialised, PGLITE_SETTINGS, readTemplate } from './pglite-template.js';

const SOCKET_PORT = 5432;
const MAX_SOCKET_PATH = 100;

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

async function main(dataDir: string): Promise<void> {
  // A new data directory starts from the packed cluster template when the build made one (no initdb).
  const template = clusterInitialised(dataDir) ? undefined : readTemplate();
  const db = await PGlite.create({
    dataDir: clusterDir(dataDir),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    ...(template ? { loadDataDir: new Blob([template]) } : {}),
  });
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
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
      process.exit(0);
    })());
  process.on('message', (message) => {
    if (message === 'close') void close();
  });
  // The parent ended without closing us (killed, crashed): close the database cleanly all the same.
  process.on('disconnect', () => void close());
  // Ctrl-C in a terminal, or a stop signal to the process group: close cleanly rather than die mid-write.
  process.once('SIGINT', () => void close());
  process.once('SIGTERM', () => void close());
  // The parent may have gone while the database opened (a client that connects and leaves at once): then close.
  if (!tell({ type: 'ready', host: useUnixSocket ? dataDir : '127.0.0.1', port })) void close();
}

/** A message to the parent, sent only while its channel is open (never ERR_IPC_CHANNEL_CLOSED); false if it is not. */
function tell(message: object): boolean {
  if (!process.connected || !process.send) return false;
  process.send(message, undefined, {}, () => {});
  return true;
}

main(process.argv[2]!).catch((err: unknown) => {
  tell({ type: 'failed', message: `could not open the embedded database: ${(err as Error).message}` });
  process.exit(1);
});
