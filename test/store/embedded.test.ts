import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
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
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/helpers/publish-demo-period.ts', '2026-w10', '20'], {
      env: { ...process.env, DATA_DIR: storage.dataDir, DATABASE_URL: '' },
    });
    assert.deepEqual(JSON.parse(stdout), { hostedEmbedded: false });
    assert.deepEqual((await listPeriods(owner.db)).map((p) => p.slug), ['2026-w10']);
  });

  test('a second store in the same process also connects through the host', async () => {
    const second = await openStore({ dataDir: storage.dataDir, databaseUrl: undefined });
    assert.equal(second.hostsEmbedded, false);
    assert.equal((await listPeriods(second.db)).length, 1);
    await second.close();
  });
});
