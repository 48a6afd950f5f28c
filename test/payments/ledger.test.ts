import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { issueKey, createAccount } from '../../src/payments/keys.js';
import {
  AccountNotFoundError,
  chargeOneCredit,
  confirmHold,
  creditState,
  grantCredits,
  ledgerTotals,
  openHolds,
  refundExpiredHolds,
  releaseHold,
} from '../../src/payments/ledger.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';

const modes = [
  { forceEmbedded: true, name: 'embedded' },
  ...(process.env.DATABASE_URL ? [{ forceEmbedded: false, name: 'postgres' }] : []),
];

for (const mode of modes) {
  describe(`credit ledger (${mode.name})`, () => {
    let storage: TestStorage;
    let store: Store;

    before(async () => {
      storage = await createTestStorage({ forceEmbedded: mode.forceEmbedded, contents: 'migrated' });
      store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 20 });
      await migrateToLatest(store.db);
    });
    after(async () => {
      await store.close();
      await storage.cleanup();
    });

    test('200 parallel charges on 50 credits: exactly 50 succeed, balance 0, ledger sums match', async () => {
      const { accountId } = await issueKey(store.db, { credits: 50, reason: 'test' });
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) => chargeOneCredit(store.db, accountId, `call-${i}`)),
      );
      assert.equal(outcomes.filter((o) => o.charged).length, 50);
      assert.ok(outcomes.every((o) => o.balance >= 0));
      assert.deepEqual(
        outcomes
          .filter((o) => o.charged)
          .map((o) => o.balance)
          .sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i),
      );
      const state = (await creditState(store.db, accountId))!;
      assert.equal(state.balance, 0);
      assert.equal(state.consumed, 50);
      assert.equal(state.purchased, 50);
      assert.ok(state.lastConsumedAt instanceof Date);
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 50, charged: 50, charges: 50, entries: 51 });
    });

    test('charges on several accounts that go together each get their own answer and ledger rows', async () => {
      const rich = await issueKey(store.db, { credits: 3, reason: 'test' });
      const poor = await issueKey(store.db, { credits: 1, reason: 'test' });
      const broke = await createAccount(store.db);
      // Submitted in one turn, these queue behind each other and are charged in a few group-committed statements.
      const outcomes = await Promise.all([
        chargeOneCredit(store.db, rich.accountId, 'r1'),
        chargeOneCredit(store.db, poor.accountId, 'p1'),
        chargeOneCredit(store.db, broke, 'b1'),
        chargeOneCredit(store.db, rich.accountId, 'r2'),
        chargeOneCredit(store.db, poor.accountId, 'p2'),
        chargeOneCredit(store.db, rich.accountId, 'r3'),
        chargeOneCredit(store.db, rich.accountId, 'r4'),
      ]);
      // Concurrent calls have no order among themselves: what holds is how many each account paid for.
      const charged = (indexes: number[]) => indexes.filter((i) => outcomes[i]!.charged);
      assert.equal(charged([0, 3, 5, 6]).length, 3);
      assert.equal(charged([1, 4]).length, 1);
      assert.deepEqual(outcomes[2], { charged: false, balance: 0 });
      assert.deepEqual(
        charged([0, 3, 5, 6])
          .map((i) => outcomes[i]!.balance)
          .sort(),
        [0, 1, 2],
      );
      assert.ok([0, 3, 5, 6, 1, 4].filter((i) => !outcomes[i]!.charged).every((i) => outcomes[i]!.balance === 0));
      assert.deepEqual(await ledgerTotals(store.db, rich.accountId), {
        granted: 3,
        charged: 3,
        charges: 3,
        entries: 4,
      });
      assert.deepEqual(await ledgerTotals(store.db, poor.accountId), {
        granted: 1,
        charged: 1,
        charges: 1,
        entries: 2,
      });
      const rows = await sql<{ reference: string; balance_after: number }>`
        select reference, balance_after from credit_ledger
         where account_id = ${rich.accountId} and kind = 'charge' order by id`.execute(store.db);
      assert.deepEqual(
        rows.rows.map((r) => r.balance_after),
        [2, 1, 0],
      );
      assert.deepEqual(
        rows.rows.map((r) => r.reference).sort(),
        charged([0, 3, 5, 6]).map((i) => `r${[0, 3, 5, 6].indexOf(i) + 1}`),
      );
    });

    test('a charge inside a caller transaction commits or rolls back with it', async () => {
      const { accountId } = await issueKey(store.db, { credits: 2, reason: 'test' });
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          assert.deepEqual(await chargeOneCredit(trx, accountId, 'rolled-back'), { charged: true, balance: 1 });
          throw new Error('the caller fails after charging');
        }),
        /the caller fails/,
      );
      assert.equal((await creditState(store.db, accountId))!.balance, 2);
      await store.db.transaction().execute((trx) => chargeOneCredit(trx, accountId, 'committed'));
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 2, charged: 1, charges: 1, entries: 2 });
    });

    test('a charge with no credit left changes nothing and reports balance 0', async () => {
      const accountId = await createAccount(store.db);
      assert.deepEqual(await chargeOneCredit(store.db, accountId), { charged: false, balance: 0 });
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 0, charged: 0, charges: 0, entries: 0 });
      assert.equal((await creditState(store.db, accountId))!.lastConsumedAt, null);
    });

    test('a grant adds to balance and purchased and appends one ledger row', async () => {
      const accountId = await createAccount(store.db);
      assert.equal(await grantCredits(store.db, accountId, 100, 'test'), 100);
      assert.equal(await grantCredits(store.db, accountId, 5, 'test'), 105);
      const state = (await creditState(store.db, accountId))!;
      assert.deepEqual([state.balance, state.purchased, state.consumed], [105, 105, 0]);
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 105, charged: 0, charges: 0, entries: 2 });
    });

    test('a grant inside a caller transaction commits or rolls back with it', async () => {
      const accountId = await createAccount(store.db);
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          await grantCredits(trx, accountId, 10, 'test', 'rolled-back');
          throw new Error('the caller fails after granting');
        }),
        /the caller fails/,
      );
      assert.equal((await creditState(store.db, accountId))!.balance, 0);
      await store.db.transaction().execute((trx) => grantCredits(trx, accountId, 10, 'test', 'committed'));
      assert.equal((await creditState(store.db, accountId))!.balance, 10);
    });

    test('the same external reference cannot be granted twice', async () => {
      const accountId = await createAccount(store.db);
      await grantCredits(store.db, accountId, 100, 'solana', 'sig-1');
      await assert.rejects(grantCredits(store.db, accountId, 100, 'solana', 'sig-1'), /duplicate key|unique/i);
      assert.equal((await creditState(store.db, accountId))!.balance, 100);
    });

    test('grants must be whole positive numbers and go to an existing account', async () => {
      const accountId = await createAccount(store.db);
      for (const bad of [0, -1, 1.5, Number.NaN, 2_000_000]) {
        await assert.rejects(grantCredits(store.db, accountId, bad, 'test'), RangeError);
      }
      await assert.rejects(grantCredits(store.db, 'acct_missing', 1, 'test'), AccountNotFoundError);
      await assert.rejects(chargeOneCredit(store.db, 'acct_missing'), AccountNotFoundError);
    });

    test('a held charge takes the credit at once and stands once its delivery is confirmed', async () => {
      const { accountId } = await issueKey(store.db, { credits: 2, reason: 'test' });
      const charge = await chargeOneCredit(store.db, accountId, 'held', { holdSeconds: 60 });
      assert.ok(charge.charged && charge.hold !== undefined);
      assert.equal(charge.balance, 1);
      assert.equal(await openHolds(store.db, accountId), 1);
      assert.equal(await confirmHold(store.db, charge.hold!), true);
      assert.equal(await openHolds(store.db, accountId), 0);
      assert.equal(await refundExpiredHolds(store.db), 0);
      assert.equal((await creditState(store.db, accountId))!.balance, 1);
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 2, charged: 1, charges: 1, entries: 2 });
    });

    test('a released hold gives the credit back with a refund row, the ledger still sums to the balance', async () => {
      const { accountId } = await issueKey(store.db, { credits: 1, reason: 'test' });
      const charge = await chargeOneCredit(store.db, accountId, 'undelivered', { holdSeconds: 60 });
      assert.ok(charge.charged);
      await releaseHold(store.db, charge.hold!);
      const state = (await creditState(store.db, accountId))!;
      assert.equal(state.balance, 1);
      assert.equal(state.consumed, 0);
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 1, charged: 0, charges: 0, entries: 3 });
      const refund = await store.db
        .selectFrom('credit_ledger')
        .select(['kind', 'delta', 'balance_after', 'reason', 'reference'])
        .where('account_id', '=', accountId)
        .where('kind', '=', 'refund')
        .executeTakeFirstOrThrow();
      assert.deepEqual(refund, {
        kind: 'refund',
        delta: 1,
        balance_after: 1,
        reason: 'undelivered',
        reference: 'undelivered',
      });
      assert.equal(await confirmHold(store.db, charge.hold!), false, 'a refunded hold cannot be confirmed');
    });

    test('an expired hold is refunded once by concurrent sweeps, and confirming it afterwards charges nothing', async () => {
      const { accountId } = await issueKey(store.db, { credits: 5, reason: 'test' });
      const holds = await Promise.all(
        Array.from({ length: 3 }, () => chargeOneCredit(store.db, accountId, 'lost', { holdSeconds: 60 })),
      );
      // The instance that made them died: nobody settles them, and they expire.
      await sql`update credit_holds set expires_at = now() - interval '1 second' where account_id = ${accountId}`.execute(
        store.db,
      );
      const swept = await Promise.all([refundExpiredHolds(store.db), refundExpiredHolds(store.db)]);
      assert.equal(swept[0] + swept[1], 3);
      for (const h of holds) assert.equal(await confirmHold(store.db, (h as { hold: number }).hold), false);
      assert.equal((await creditState(store.db, accountId))!.balance, 5);
      assert.deepEqual(await ledgerTotals(store.db, accountId), { granted: 5, charged: 0, charges: 0, entries: 7 });
    });

    test('200 parallel held charges on 50 credits: exactly 50 held, each with its own hold; releasing them restores 50', async () => {
      const { accountId } = await issueKey(store.db, { credits: 50, reason: 'test' });
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          chargeOneCredit(store.db, accountId, `call-${i}`, i % 2 ? { holdSeconds: 60 } : {}),
        ),
      );
      const charged = outcomes.filter((o) => o.charged);
      assert.equal(charged.length, 50);
      const holds = charged.flatMap((o) => (o.charged && o.hold !== undefined ? [o.hold] : []));
      assert.equal(new Set(holds).size, holds.length);
      assert.equal(await openHolds(store.db, accountId), holds.length);
      await Promise.all(holds.map((h) => releaseHold(store.db, h)));
      const state = (await creditState(store.db, accountId))!;
      assert.equal(state.balance, holds.length, 'the unheld charges stand, the released ones are back');
      const totals = await ledgerTotals(store.db, accountId);
      assert.equal(totals.granted - totals.charged, state.balance);
      assert.equal(totals.charges, state.consumed);
    });

    test('the ledger is append-only and a balance cannot go below 0', async () => {
      const { accountId } = await issueKey(store.db, { credits: 1, reason: 'test' });
      await assert.rejects(sql`update credit_ledger set delta = 5`.execute(store.db), /append-only/);
      await assert.rejects(sql`delete from credit_ledger`.execute(store.db), /append-only/);
      await assert.rejects(
        sql`update accounts set balance = -1 where id = ${accountId}`.execute(store.db),
        /check constraint/i,
      );
    });
  });
}
