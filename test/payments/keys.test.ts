import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  findAccountByKey,
  fingerprintOf,
  hashKey,
  issueKey,
  listKeys,
  looksLikeKey,
  revokeKey,
} from '../../src/payments/keys.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';

const modes = [
  { forceEmbedded: true, name: 'embedded' },
  ...(process.env.DATABASE_URL ? [{ forceEmbedded: false, name: 'postgres' }] : []),
];

for (const mode of modes) {
  describe(`credit-pack keys (${mode.name})`, () => {
    let storage: TestStorage;
    let store: Store;

    before(async () => {
      storage = await createTestStorage({ forceEmbedded: mode.forceEmbedded, contents: 'migrated' });
      store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
      await migrateToLatest(store.db);
    });
    after(async () => {
      await store.close();
      await storage.cleanup();
    });

    test('a key is a long random secret with a recognisable prefix', async () => {
      const a = await issueKey(store.db, { credits: 0, reason: 'test' });
      const b = await issueKey(store.db, { credits: 0, reason: 'test' });
      assert.match(a.key, /^sigsk_[A-Za-z0-9_-]{43}$/);
      assert.notEqual(a.key, b.key);
      assert.ok(looksLikeKey(a.key));
    });

    test('only the hash and a fingerprint are stored, never the key', async () => {
      const created = await issueKey(store.db, { credits: 3, email: 'a@example.org', label: 'lab', reason: 'test' });
      const row = await store.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.key_hash, hashKey(created.key));
      assert.equal(row.fingerprint, fingerprintOf(created.key));
      assert.equal(created.fingerprint, hashKey(created.key).slice(0, 12));
      const everything = JSON.stringify(await store.db.selectFrom('api_keys').selectAll().execute());
      assert.ok(!everything.includes(created.key.slice(6)));
    });

    test('the account is found by the presented key', async () => {
      const created = await issueKey(store.db, { credits: 7, email: 'b@example.org', reason: 'test' });
      const account = await findAccountByKey(store.db, created.key);
      assert.equal(account?.id, created.accountId);
      assert.equal(account?.keyId, created.id);
      assert.equal(account?.balance, 7);
      assert.equal(account?.email, 'b@example.org');
    });

    test('malformed and unknown keys find nothing', async () => {
      const created = await issueKey(store.db, { credits: 1, reason: 'test' });
      for (const bad of [
        '',
        'sigsk_',
        created.key.slice(0, -1),
        `${created.key}x`,
        created.key.toUpperCase(),
        `sigsk_${'A'.repeat(43)}`,
      ]) {
        assert.equal(await findAccountByKey(store.db, bad), undefined, bad);
      }
    });

    test('a revoked key opens nothing; revoking twice or an unknown id says so', async () => {
      const created = await issueKey(store.db, { credits: 1, reason: 'test' });
      assert.equal(await revokeKey(store.db, created.id), 'revoked');
      assert.equal(await findAccountByKey(store.db, created.key), undefined);
      assert.equal(await revokeKey(store.db, created.id), 'already-revoked');
      assert.equal(await revokeKey(store.db, 'key_unknown'), 'unknown');
    });

    test('the listing shows fingerprints and credit state, no secret', async () => {
      const created = await issueKey(store.db, { credits: 9, label: 'listed', reason: 'test' });
      const listing = await listKeys(store.db);
      const entry = listing.find((k) => k.id === created.id)!;
      assert.equal(entry.fingerprint, created.fingerprint);
      assert.equal(entry.label, 'listed');
      assert.equal(entry.balance, 9);
      assert.ok(!JSON.stringify(listing).includes(created.key));
    });
  });
}
