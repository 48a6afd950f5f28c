import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { lastCompletePeriod } from '../../src/domain/periods.js';
import { DEMO_PERIODS, DEMO_STARTUPS, seedDemoIfEmpty } from '../../src/pipeline/demo/seed.js';
import { migrateToLatest, openStore } from '../../src/store/database.js';
import { clusterDir, templatePath } from '../../src/store/pglite-template.js';
import { CACHE_DIR, cacheName, publishEntry, sourceHash } from './cache.js';
import { generatedDemo } from './demo.js';

/**
 * Where a test's data lives. With DATABASE_URL set (CI), each call creates its own PostgreSQL database on that
 * server and drops it afterwards, so runs and test files never collide; otherwise a fresh temporary DATA_DIR holds
 * the embedded engine.
 */
export interface TestStorage {
  dataDir: string;
  databaseUrl: string | undefined;
  mode: 'embedded' | 'postgres';
  cleanup(): Promise<void>;
}

/**
 * What a new storage holds: nothing (`empty`), every migration applied (`migrated`), or the migrations and the demo
 * data a first start stores (`demo`: the default seed, its 315 startups and 30 weeks ending with the last complete
 * week). A prepared storage is a copy of one made once for the current migrations and generator, so a file does not
 * pay for migrating and storing the demo itself; tests of migrations and of a first start take `empty`.
 */
export type StorageContents = 'empty' | 'migrated' | 'demo';

export const postgresUrl = process.env.DATABASE_URL || undefined;
export const redisUrl = process.env.REDIS_URL || undefined;

/** The demo seed a start uses when DEMO_SEED is not set. */
export const DEFAULT_DEMO_SEED = loadConfig({}).demo.seed;

/** What a prepared storage depends on: its contents, the schema and the code that writes them, and the week. */
function preparedKey(contents: Exclude<StorageContents, 'empty'>, engine: string): unknown {
  return {
    contents,
    engine,
    source: sourceHash(['store', 'pipeline', 'domain', 'schemas']),
    ...(contents === 'demo' ? { seed: DEFAULT_DEMO_SEED, end: lastCompletePeriod(new Date()).slug } : {}),
  };
}

/** Migrates a store and, for `demo`, stores the demo data as a first start would. */
async function fill(dataDir: string, databaseUrl: string | undefined, contents: 'migrated' | 'demo'): Promise<void> {
  const store = await openStore({ dataDir, databaseUrl, poolSize: 2 });
  try {
    await migrateToLatest(store.db);
    if (contents === 'demo') {
      const demo = {
        seed: DEFAULT_DEMO_SEED,
        startups: DEMO_STARTUPS,
        periods: DEMO_PERIODS,
        endPeriod: lastCompletePeriod(new Date()),
      };
      await seedDemoIfEmpty(store.db, demo, generatedDemo(demo));
    }
  } finally {
    await store.close();
  }
}

/** The prepared embedded cluster (a closed PGlite data directory), made on first use. */
async function embeddedTemplate(contents: 'migrated' | 'demo'): Promise<string> {
  const dir = path.join(
    CACHE_DIR,
    cacheName(`cluster-${contents}`, preparedKey(contents, path.basename(templatePath()))),
  );
  if (existsSync(dir)) return dir;
  await fs.mkdir(CACHE_DIR, { recursive: true });
  const building = await fs.mkdtemp(path.join(CACHE_DIR, 'building-'));
  try {
    await fill(building, undefined, contents);
    publishEntry(clusterDir(building), dir);
  } finally {
    await fs.rm(building, { recursive: true, force: true });
  }
  return dir;
}

async function withAdmin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Runs a statement that needs a database nobody is connected to (a template being copied or renamed): a backend
 * that just closed its connection may still be leaving, so "being accessed by other users" is retried briefly.
 */
async function whileUnused(client: pg.Client, statement: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(statement);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The prepared PostgreSQL template database, made on first use on this server. */
async function postgresTemplate(contents: 'migrated' | 'demo'): Promise<string> {
  const name = `signal_template_${cacheName(contents, preparedKey(contents, 'postgres')).replace('-', '_')}`;
  return withAdmin(async (admin) => {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return name;
    const building = `${name.slice(0, 40)}_building_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    try {
      await fill(os.tmpdir(), databaseUrl(building), contents);
      await whileUnused(admin, `ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (err) {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      // Another process made the same template meanwhile: use it.
      if ((err as { code?: string }).code === '42P04') return name;
      throw err;
    }
    return name;
  });
}

export async function createTestStorage(
  options: { forceEmbedded?: boolean; contents?: StorageContents } = {},
): Promise<TestStorage> {
  const contents = options.contents ?? 'empty';
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sigsvc-'));
  if (!postgresUrl || options.forceEmbedded) {
    if (contents !== 'empty') await fs.cp(await embeddedTemplate(contents), clusterDir(dataDir), { recursive: true });
    return {
      dataDir,
      databaseUrl: undefined,
      mode: 'embedded',
      cleanup: () => fs.rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `signal_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = contents === 'empty' ? undefined : await postgresTemplate(contents);
  await withAdmin((admin) => whileUnused(admin, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    dataDir,
    databaseUrl: databaseUrl(name),
    mode: 'postgres',
    async cleanup() {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
