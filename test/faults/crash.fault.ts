/**
 * Fault: an instance SIGKILLed with 200 paid calls in flight (no Idempotency-Key). Two instances share the suite's
 * own PostgreSQL and Redis; the first is killed as soon as the ledger shows a quarter of the calls charged (a
 * committed group whose answers are being written), the second stays up. What must hold: once the
 * killed instance's held charges have expired and the surviving instance's job has refunded them, the ledger holds
 * no more charges than 200 answers the client saw (a call cut by the crash is not charged; an answer delivered
 * whose confirmation the crash lost is free), over several rounds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueKey } from '../../src/payments/keys.js';
import { creditState, openHolds } from '../../src/payments/ledger.js';
import { openStore, type Store } from '../../src/store/database.js';
import {
  missingBinaries,
  sleep,
  startInstance,
  startPostgres,
  startRedis,
  until,
  type Instance,
  type Postgres,
  type RedisServer,
} from './harness.js';

const CALLS = 200;
const ROUNDS = Number(process.env.FAULTS_CRASH_ROUNDS ?? 3);
const HOLD_SECONDS = 4;

describe('SIGKILL with paid calls in flight', { skip: missingBinaries() }, () => {
  let pg: Postgres;
  let redis: RedisServer;
  let databaseUrl: string;
  let store: Store;
  const env = () => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    RATE_LIMIT: 'off',
    MAX_CONNECTIONS_PER_ADDRESS: '10000',
    CREDIT_HOLD_SECONDS: String(HOLD_SECONDS),
  });
  let survivor: Instance;

  before(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    databaseUrl = await pg.createDatabase('crash');
    survivor = await startInstance(env());
    store = await openStore({ dataDir: '/tmp', databaseUrl, poolSize: 2 });
  });
  after(async () => {
    await store?.close();
    await survivor?.kill();
    await redis?.close();
    await pg?.close();
  });

  test(`a call the crash cut is not charged: ledger charges ≤ 200 answers seen, ${ROUNDS} rounds`, async (t) => {
    const signals = (await (await fetch(`${survivor.base}/api/signals.json`)).json()) as {
      trending: { name: string }[];
    };
    const rounds: { answered: number; reset: number; chargedAtCrash: number; charged: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const victim = await startInstance(env());
      const issued = await issueKey(store.db, { credits: 10_000, reason: 'faults' });
      let answered = 0;
      let reset = 0;
      let killed = false;
      const call = (i: number) =>
        fetch(`${victim.base}/api/agent/deep-signal`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.key}` },
          body: JSON.stringify({ name: signals.trending[i % signals.trending.length]!.name }),
        }).then(
          async (r) => {
            const body = (await r.json()) as { charged?: number };
            if (r.status === 200 && body.charged === 1) answered++;
          },
          () => reset++,
        );
      // The kill lands where it hurts most: as soon as the ledger shows charges committed (a group of them), before
      // their answers are all written.
      const watch = (async () => {
        while (!killed) {
          const state = await creditState(store.db, issued.accountId);
          if (state!.consumed >= CALLS / 4) {
            killed = true;
            victim.child.kill('SIGKILL');
          } else await sleep(1);
        }
      })();
      await Promise.all(Array.from({ length: CALLS }, (_, i) => call(i)));
      killed = true;
      await watch;
      await victim.kill('SIGKILL');
      const chargedAtCrash = (await creditState(store.db, issued.accountId))!.consumed;
      // The survivor's job refunds the killed instance's holds once they expire.
      const open = await until(
        () => openHolds(store.db, issued.accountId),
        (n) => n === 0,
        (HOLD_SECONDS + 10) * 1000,
      );
      assert.equal(open, 0, 'every hold was settled or refunded');
      const settled = (await creditState(store.db, issued.accountId))!.consumed;
      rounds.push({ answered, reset, chargedAtCrash, charged: settled });
      await sleep(100);
    }
    for (const [i, r] of rounds.entries()) {
      t.diagnostic(
        `round ${i + 1}: ${r.answered} × 200 seen, ${r.reset} cut; charged at the crash ${r.chargedAtCrash}, after the holds expired ${r.charged} (${Math.max(0, r.charged - r.answered)} charged unseen, ${Math.max(0, r.answered - r.charged)} answered free)`,
      );
    }
    // Nobody is charged for an answer they did not see; an answer whose confirmation the crash lost is free.
    for (const r of rounds) assert.ok(r.charged <= r.answered, JSON.stringify(r));
  });
});
