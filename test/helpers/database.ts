import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

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

export const postgresUrl = process.env.DATABASE_URL || undefined;
export const redisUrl = process.env.REDIS_URL || undefined;

export async function createTestStorage(options: { forceEmbedded?: boolean } = {}): Promise<TestStorage> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sigsvc-'));
  if (!postgresUrl || options.forceEmbedded) {
    return {
      dataDir,
      databaseUrl: undefined,
      mode: 'embedded',
      cleanup: () => fs.rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `signal_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    mode: 'postgres',
    async cleanup() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
