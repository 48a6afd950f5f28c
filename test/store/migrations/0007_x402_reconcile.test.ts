import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore, migrateToLatest } from '../../../src/store/database.js';
import { migration } from '../../../src/store/migrations/0007_x402_reconcile.js';
import { createTestStorage } from '../../helpers/database.js';

describe('migration 0007_x402_reconcile', () => {
  test('settlements recorded before it count as delivered when they were settled; pending ones stay open', async () => {
    const storage = await createTestStorage();
    const store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 1 });
    try {
      await migrateToLatest(store.db);
      await migration.down!(store.db);
      const settledAt = new Date('2026-03-09T06:00:00Z');
      const createdAt = new Date('2026-03-09T05:59:58Z');
      const row = (nonce: string, status: string, settled: Date | null) =>
        sql`insert into x402_payments (network, asset, payer, nonce, amount, startup, status, tx_hash, created_at, settled_at)
            values ('base', '0xa', '0xb', ${nonce}, 190000, 'acme', ${status}, ${settled ? '0x1' : null}, ${createdAt}, ${settled})`;
      await row('0x01', 'settled', settledAt).execute(store.db);
      await row('0x02', 'pending', null).execute(store.db);
      await migration.up(store.db);
      const rows = await store.db.selectFrom('x402_payments').selectAll().orderBy('nonce').execute();
      assert.deepEqual(
        rows.map((r) => [
          r.nonce,
          r.status,
          r.delivered_at?.toISOString() ?? null,
          r.reserved_at.toISOString(),
          r.x402_version,
        ]),
        [
          ['0x01', 'settled', settledAt.toISOString(), createdAt.toISOString(), 1],
          ['0x02', 'pending', null, createdAt.toISOString(), 1],
        ],
      );
    } finally {
      await store.close();
      await storage.cleanup();
    }
  });
});
