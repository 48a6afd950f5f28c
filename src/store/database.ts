import type { DatabaseConfig } from '../config.js';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openEmbedded, type EmbeddedHost } from './embedded.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

export interface StoreOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections this process may hold. */
  poolSize?: number;
  /** PostgreSQL only: the server cancels a statement running longer (the client gives up a little later). */
  statementTimeoutMs?: number;
  /** Waiting longer for a connection fails the query (the route answers 503). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL only: a watchdog runs `select 1` on its own connection every half of this; one not answered within it
   * opens the breaker (see DatabaseBreaker). 0 or unset: no watchdog.
   */
  healthTimeoutMs?: number;
  /** The serving process: a connection, once opened, stays open while idle (up to `poolSize`). */
  keepIdleConnections?: boolean;
}

/**
 * How the service and the CLI open the store: the database, and the pool limits of the configuration. (The serving
 * process adds its own settings, `servingStoreOptions`; batch commands run without them.)
 */
export function storeOptions(database: DatabaseConfig): StoreOptions {
  return {
    dataDir: database.dataDir,
    databaseUrl: database.url,
    poolSize: database.poolMax,
    statementTimeoutMs: database.statementTimeoutMs,
    connectTimeoutMs: database.connectTimeoutMs,
  };
}

/** How the serving process opens the store: `storeOptions`, the watchdog, and idle connections kept open. */
export function servingStoreOptions(database: DatabaseConfig): StoreOptions {
  return { ...storeOptions(database), healthTimeoutMs: database.healthTimeoutMs, keepIdleConnections: true };
}

/** The data-access handle every part of the service shares. */
export interface Store {
  db: Kysely<Database>;
  mode: 'embedded' | 'postgres';
  /**
   * True when this process hosts the embedded database (and other processes reach it through us). Known once the
   * database is open (see createStore).
   */
  readonly hostsEmbedded: boolean;
  ping(): Promise<void>;
  /** True when `err` says the database is unreachable or overloaded (a 503 to the client), not that a query is wrong. */
  isUnavailable(err: unknown): boolean;
  close(): Promise<void>;
}

// Keep bigint columns (count(*)) as JS numbers where they fit; the service never counts past 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A store whose database may still be opening: `store` can be handed out at once (its queries wait for the database),
 * `ready` settles when the database is open (or rejects with why it could not be). The service builds its HTTP
 * server while the embedded database's host process starts, instead of after.
 */
export interface OpeningStore {
  store: Store;
  ready: Promise<void>;
}

/** The pg pool's settings for a store: where to connect (`connection`), its limits and timeouts. */
export function poolConfig(options: StoreOptions, connection: pg.PoolConfig): pg.PoolConfig {
  const timeouts = options.statementTimeoutMs
    ? {
        // Server side for PostgreSQL; client side everywhere, so a connection that hangs (no reset) fails too.
        ...(options.databaseUrl ? { statement_timeout: options.statementTimeoutMs } : {}),
        query_timeout: options.statementTimeoutMs + 1_000,
      }
    : {};
  return {
    ...connection,
    ...timeouts,
    max: options.poolSize ?? 8,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // pg's default closes a connection idle for 10 s: in a serving process, each one opened for a burst of queries
    // (the start, a period swap, paid calls) once the burst is over. Each close ran node's stream functions, which the
    // HTTP sockets share, on shapes they had not seen, and V8 dropped their optimised code and compiled it again under
    // load (`npm run bench http`). Kept, they are bounded by `max`, and an idle one does not keep the process alive
    // (allowExitOnIdle).
    ...(options.keepIdleConnections ? { idleTimeoutMillis: 0, allowExitOnIdle: true } : {}),
  };
}

export function createStore(options: StoreOptions): OpeningStore {
  const embedded = options.databaseUrl ? undefined : openEmbedded(options.dataDir);
  embedded?.catch(() => {}); // reported through `ready`
  const breaker =
    options.databaseUrl && options.healthTimeoutMs
      ? new DatabaseBreaker(options.databaseUrl, options.healthTimeoutMs)
      : undefined;
  const makePool = (connection: pg.PoolConfig): pg.Pool => {
    const pool = new pg.Pool(poolConfig(options, connection));
    // An idle client that loses its server must not crash the process; the next query reports the failure.
    pool.on('error', () => {});
    // Nor must a client that loses its server while checked out (mid-transaction): its query rejects, the request
    // answers 503, and the pool replaces the client. Without a listener the 'error' event would crash the process.
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  };
  // PostgreSQL: the pool now (it connects on first use). Embedded: the pool once the host tells its address; Kysely
  // asks for it at the first query.
  const pool = embedded
    ? async () => {
        const { endpoint } = await embedded;
        return makePool({ host: endpoint.host, port: endpoint.port, user: 'postgres', database: 'postgres' });
      }
    : makePool({ connectionString: options.databaseUrl });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: breaker && typeof pool !== 'function' ? breaker.guardPool(pool) : pool }),
  });
  let host: EmbeddedHost | undefined;
  const ready = embedded
    ? embedded.then((opened) => {
        host = opened.host;
      })
    : Promise.resolve();
  return {
    ready,
    store: {
      db,
      mode: options.databaseUrl ? 'postgres' : 'embedded',
      get hostsEmbedded() {
        return host !== undefined;
      },
      isUnavailable: isDatabaseUnavailable,
      async ping() {
        await sql`select 1`.execute(db);
      },
      async close() {
        breaker?.stop();
        await db.destroy();
        // A host still starting is waited for, then closed: it holds DATA_DIR's lock.
        const opened = await embedded?.catch(() => undefined);
        await opened?.host?.close();
      },
    },
  };
}

/** Opens the store and waits until its database is open. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const { store, ready } = createStore(options);
  await ready;
  return store;
}

/**
 * True when every known migration, and no other, is recorded as applied: one query instead of the Migrator's
 * checks and lock, for the common start on an up-to-date database. Anything else (no migration table yet, a
 * migration missing, an unknown one recorded) is left to the Migrator, which applies or reports it.
 */
async function upToDate(db: Kysely<Database>): Promise<boolean> {
  const known = Object.keys(await migrationProvider.getMigrations());
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return applied.size === known.length && known.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  if (await upToDate(db)) return;
  // Migrations are independent of each other's order, and branches add them side by side: a database that applied a
  // later-numbered one first still takes the earlier one instead of refusing to start.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`,
    );
  }
}

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /the database is not answering|connection terminated|timeout exceeded when trying to connect|query read timeout|not queryable|connection (?:ended|closed)|the database system is (?:starting up|shutting down)/i;

/**
 * True when an error means "PostgreSQL did not answer" rather than "the query was wrong": refused or lost
 * connections, pool or statement timeouts, a server shutting down or out of connections. Such a request is answered
 * 503 with Retry-After, never 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
    // SQLSTATE: 08 connection exception, 57P01-03 shutdown / cannot connect now, 57014 statement timeout,
    // 53300 too many connections.
    if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === '57014' || code === '53300') return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // AggregateError (a connection attempt to several addresses).
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}

/** What a query gets while the breaker is open: an unavailable error (SQLSTATE class 08), answered 503. */
export class DatabaseNotAnsweringError extends Error {
  readonly code = '08006';
  constructor() {
    super('the database is not answering (its health check timed out); retry shortly');
    this.name = 'DatabaseNotAnsweringError';
  }
}

/**
 * A circuit breaker for a PostgreSQL that stops answering without closing its connections (a frozen process, a
 * network partition): without it every query would wait for its statement timeout and every new connection for
 * the connect timeout, tens of seconds of open requests. A watchdog runs `select 1` on a connection of its own every
 * `timeoutMs / 2`; when two in a row are not answered within `timeoutMs` (or fail), the breaker opens (one slow
 * answer on a busy host, such as a CI machine running migrations beside other processes, does not): every query in flight
 * through the pool fails at once with DatabaseNotAnsweringError (its connection is discarded), every new one fails
 * before it is sent, so paid calls answer 503 with Retry-After within about `2.5 × timeoutMs` of the freeze. The
 * watchdog keeps checking with a new connection; the first answer closes the breaker. Reads served from memory
 * never reach the database and are not affected.
 */
export class DatabaseBreaker {
  private opened = false;
  private abort!: { promise: Promise<never>; reject: (err: Error) => void };
  private client: pg.Client | undefined;
  private readonly timer: NodeJS.Timeout;
  private checking = false;
  /** Checks missed in a row; the breaker opens at MISSES_TO_OPEN, so one slow answer on a busy host does not. */
  private misses = 0;
  private stopped = false;
  static readonly MISSES_TO_OPEN = 2;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {
    this.rearm();
    this.timer = setInterval(() => void this.check(), Math.max(50, Math.floor(timeoutMs / 2)));
    this.timer.unref();
  }

  get open(): boolean {
    return this.opened;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.dropClient();
  }

  private rearm(): void {
    let reject!: (err: Error) => void;
    const promise = new Promise<never>((_, r) => (reject = r));
    promise.catch(() => {});
    this.abort = { promise, reject };
  }

  private trip(): void {
    if (this.opened) return;
    this.opened = true;
    this.abort.reject(new DatabaseNotAnsweringError());
  }

  private dropClient(): void {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    client.on('error', () => {});
    // end() would wait for a server that does not answer: the socket is closed outright.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    void client.end().catch(() => {});
  }

  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        (async () => {
          if (!this.client) {
            const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: this.timeoutMs });
            client.on('error', () => {});
            this.client = client;
            await client.connect();
          }
          await this.client.query('select 1');
        })(),
        new Promise((_, reject) => {
          const started = performance.now();
          timer = setTimeout(() => {
            // A timer that fires late means this process, not the database, was stalled (a long task blocked the
            // event loop): the answer may be waiting unread. Let pending I/O run first, and do not count a stall.
            const stalled = performance.now() - started > this.timeoutMs * 1.5;
            setImmediate(() => reject(new Error(stalled ? 'stalled' : 'health check timed out')));
          }, this.timeoutMs);
        }),
      ]);
      this.misses = 0;
      if (this.opened) {
        this.opened = false;
        this.rearm();
      }
    } catch (err) {
      if ((err as Error).message === 'stalled') return;
      this.dropClient();
      if (++this.misses >= DatabaseBreaker.MISSES_TO_OPEN) this.trip();
    } finally {
      clearTimeout(timer);
      this.checking = false;
    }
    // A first miss is confirmed at once by the next check, not half a period later.
    if (this.misses === 1 && !this.stopped) setImmediate(() => void this.check());
  }

  /** `work` unless the breaker opens first (then DatabaseNotAnsweringError); fails at once while it is open. */
  private guard<T>(work: Promise<T>): Promise<T> {
    if (this.opened) return Promise.reject(new DatabaseNotAnsweringError());
    return Promise.race([work, this.abort.promise]);
  }

  /** The pool as Kysely sees it, with every connection and query guarded by the breaker. */
  guardPool(pool: pg.Pool): { connect(): Promise<pg.PoolClient>; end(): Promise<void> } {
    return {
      end: () => pool.end(),
      connect: () => {
        const pending = pool.connect();
        return this.guard(pending).then(
          (client) => this.guardClient(client),
          (err: unknown) => {
            // A connection that arrives after the breaker gave up on it goes back to the pool.
            pending.then(
              (late) => late.release(true),
              () => {},
            );
            throw err;
          },
        );
      },
    };
  }

  private guardClient(client: pg.PoolClient): pg.PoolClient {
    let broken = false;
    const query = (...args: unknown[]): unknown => {
      const result = (client.query as (...a: unknown[]) => unknown)(...args);
      if (!(result instanceof Promise)) return result; // a cursor (streaming) is not guarded
      result.catch(() => {});
      return this.guard(result).catch((err: unknown) => {
        if (err instanceof DatabaseNotAnsweringError) broken = true;
        throw err;
      });
    };
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') return query;
        // A connection whose query was abandoned is discarded, never handed to another request.
        if (prop === 'release') return (err?: Error | boolean) => target.release(broken ? true : err);
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
  }
}
