import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createStore, migrateToLatest, openStore, type Store } from '../../src/store/database.js';
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

describe('a store handed out while the embedded database opens (createStore)', () => {
  let storage: TestStorage;

  before(async () => {
    storage = await createTestStorage({ forceEmbedded: true });
  });
  after(async () => {
    await storage.cleanup();
  });

  test('a query made before the database is open waits for it and is answered', async () => {
    const { store, ready } = createStore({ dataDir: storage.dataDir, databaseUrl: undefined });
    try {
      let open = false;
      void ready.then(() => (open = true));
      const answer = sql<{ x: number }>`select 41 + 1 as x`.execute(store.db);
      assert.equal(open, false, 'the query was made before the host was up');
      assert.equal((await answer).rows[0]?.x, 42);
      await ready;
      assert.equal(store.hostsEmbedded, true);
    } finally {
      await store.close();
    }
  });

  test('closing before the database is open still closes its host and frees DATA_DIR for the next process', async () => {
    const { store, ready } = createStore({ dataDir: storage.dataDir, databaseUrl: undefined });
    await store.close();
    await ready;
    const next = await openStore({ dataDir: storage.dataDir, databaseUrl: undefined });
    try {
      assert.equal(next.hostsEmbedded, true, 'the next store hosts the database itself: the first let go of it');
    } finally {
      await next.close();
    }
  });

  test('a database that cannot be opened rejects ready, and the queries say why', async () => {
    const file = path.join(storage.dataDir, 'not-a-directory');
    await fs.writeFile(file, '');
    const { store, ready } = createStore({ dataDir: file, databaseUrl: undefined });
    await assert.rejects(ready);
    await assert.rejects(sql`select 1`.execute(store.db));
    await store.close();
  });
});
