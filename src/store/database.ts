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
}

/** The data-access handle every part of the service shares. */
export interface Store {
  db: Kysely<Database>;
  mode: 'embedded' | 'postgres';
  /** True when this process hosts the embedded database (and other processes reach it through us). */
  hostsEmbedded: boolean;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// Keep bigint columns (count(*)) as JS numbers where they fit; the service never counts past 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openStore(options: StoreOptions): Promise<Store> {
  let host: EmbeddedHost | undefined;
  let poolConfig: pg.PoolConfig;
  if (options.databaseUrl) {
    poolConfig = { connectionString: options.databaseUrl };
  } else {
    const embedded = await openEmbedded(options.dataDir);
    host = embedded.host;
    poolConfig = { host: embedded.endpoint.host, port: embedded.endpoint.port, user: 'postgres', database: 'postgres' };
  }
  const pool = new pg.Pool({ ...poolConfig, max: options.poolSize ?? 8, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    mode: options.databaseUrl ? 'postgres' : 'embedded',
    hostsEmbedded: host !== undefined,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
      await host?.close();
    },
  };
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
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`,
    );
  }
}
