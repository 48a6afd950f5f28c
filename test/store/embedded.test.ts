import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { listPeriods } from '../../src/store/periods.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';

const run = promisify(execFile);

describe('embedded database shared between processes', () => {
  let storage: TestStorage;
  let owner: Store;

  before(async () => {
    storage = await createTestStorage({ forceEmbedded: true });
    owner = await openStore({ dataDir: storage.dataDir, databaseUrl: undefined });
    await migrateToLatest(owner.db);
  });
  after(async () => {
    await owner.close();
    await storage.cleanup();
  });

  test('the first process to open DATA_DIR hosts the database', () => {
    assert.equal(owner.hostsEmbedded, true);
  });

  test('a second process writes through the host, and the host sees the write at once', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'test/helpers/publish-demo-period.ts', '2026-w10', '20'],
      {
        env: { ...process.env, DATA_DIR: storage.dataDir, DATABASE_URL: '' },
      },
    );
    assert.deepEqual(JSON.parse(stdout), { hostedEmbedded: false });
    assert.deepEqual(
      (await listPeriods(owner.db)).map((p) => p.slug),
      ['2026-w10'],
    );
  });

  test('concurrent connections never mix their statements (extended protocol outside transactions)', async () => {
    const other = await openStore({ dataDir: storage.dataDir, databaseUrl: undefined, poolSize: 8 });
    let wrong = 0;
    try {
      await Promise.all(
        Array.from({ length: 12 }, async (_, w) => {
          const db = (w % 2 ? other : owner).db;
          for (let i = 0; i < 60; i++) {
            // Three statement shapes with different parameter counts: a mixed-up Bind fails or answers wrongly.
            const r =
              w % 3 === 0
                ? await sql<{ x: number }>`select ${i}::int + ${w}::int as x`.execute(db)
                : w % 3 === 1
                  ? await sql<{ x: number }>`select (${i}::int * 1) + ${w}::int as x, ${'pad'}::text as p`.execute(db)
                  : await db.transaction().execute((t) => sql<{ x: number }>`select ${i + w}::int as x`.execute(t));
            if (r.rows[0]?.x !== i + w) wrong++;
          }
        }),
      );
    } finally {
      await other.close();
    }
    assert.equal(wrong, 0);
  });

  test('a second store in the same process also connects through the host', async () => {
    const second = await openStore({ dataDir: storage.dataDir, databaseUrl: undefined });
    assert.equal(second.hostsEmbedded, false);
    assert.equal((await listPeriods(second.db)).length, 1);
    await second.close();
  });
});
