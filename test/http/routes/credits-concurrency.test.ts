import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { issueKey } from '../../../src/payments/keys.js';
import { creditState, ledgerTotals } from '../../../src/payments/ledger.js';
import { startService, type RunningService } from '../../../src/service.js';
import { postgresUrl } from '../../helpers/database.js';
import { freePort } from '../../helpers/net.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/** A second server instance on the first one's PostgreSQL database. */
async function secondInstance(first: TestService): Promise<RunningService> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: first.storage.dataDir,
    DATABASE_URL: first.storage.databaseUrl!,
    LOG_LEVEL: 'silent',
    PERIOD_POLL_MS: '200',
  });
  return startService(config, createLogger(config.server));
}

const modes = [
  { name: 'embedded, one instance', forceEmbedded: true, instances: 1 },
  ...(postgresUrl ? [{ name: 'PostgreSQL, two instances', forceEmbedded: false, instances: 2 }] : []),
];

for (const mode of modes) {
  describe(`charging under concurrency (${mode.name})`, () => {
    let svc: TestService;
    let other: RunningService | undefined;
    let urls: string[];

    before(async () => {
      svc = await startTestService({}, { forceEmbedded: mode.forceEmbedded });
      urls = [svc.url];
      if (mode.instances === 2) {
        other = await secondInstance(svc);
        urls.push(other.address);
      }
    });
    after(async () => {
      await other?.close();
      await svc.close();
    });

    test('200 parallel charges on a key with 50 credits → exactly 50 succeed, balance 0, ledger sums match', async () => {
      const { key, accountId } = await issueKey(svc.service.store.db, { credits: 50, reason: 'test' });
      const name = svc.service.holder.current!.startups[5]!.startup.name;
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${urls[i % urls.length]}/api/agent/deep-signal`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          }).then(async (res) => ({
            status: res.status,
            balance: res.headers.get('x-credits-balance'),
            body: await res.text(),
          })),
        ),
      );
      const ok = responses.filter((r) => r.status === 200);
      assert.equal(ok.length, 50);
      assert.equal(responses.filter((r) => r.status === 402).length, 150);
      assert.deepEqual(
        ok.map((r) => Number(r.balance)).sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i),
      );
      assert.ok(responses.every((r) => r.balance !== null && Number(r.balance) >= 0));
      const state = (await creditState(svc.service.store.db, accountId))!;
      assert.deepEqual([state.balance, state.consumed, state.purchased], [0, 50, 50]);
      assert.deepEqual(await ledgerTotals(svc.service.store.db, accountId), {
        granted: 50,
        charged: 50,
        charges: 50,
        entries: 51,
      });
    });

    test('concurrent retries with one Idempotency-Key across instances → one charge', async () => {
      const { key, accountId } = await issueKey(svc.service.store.db, { credits: 10, reason: 'test' });
      const name = svc.service.holder.current!.startups[9]!.startup.name;
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${urls[i % urls.length]}/api/agent/deep-signal`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'idempotency-key': 'one-call',
            },
            body: JSON.stringify({ name }),
          }).then(async (res) => ({ status: res.status, body: await res.text() })),
        ),
      );
      assert.ok(responses.every((r) => r.status === 200));
      assert.equal(new Set(responses.map((r) => r.body)).size, 1);
      assert.equal((await creditState(svc.service.store.db, accountId))!.balance, 9);
    });
  });
}
