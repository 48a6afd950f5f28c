import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { issueKey } from '../../../src/payments/keys.js';
import { creditState, ledgerTotals } from '../../../src/payments/ledger.js';
import { SolanaRedeemResponse, SolanaTermsResponse } from '../../../src/schemas/payments.js';
import { startService, type RunningService } from '../../../src/service.js';
import {
  ataOf,
  randomAddress,
  randomSignature,
  startFakeSolanaRpc,
  transferTransaction,
  type FakeSolanaRpc,
  type TransferSpec,
} from '../../helpers/fake-solana-rpc.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { metricValue } from '../../helpers/metrics.js';

const PATH = '/api/agent/deep-signal/solana';
const DEVNET_USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const PRICE = 19_000_000n;

function redeem(url: string, key: string | undefined, body: unknown) {
  return fetch(`${url}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('Solana credit packs', () => {
  let rpc: FakeSolanaRpc;
  let svc: TestService;
  let payTo: string;
  before(async () => {
    rpc = await startFakeSolanaRpc();
    payTo = await randomAddress();
    svc = await startTestService({ SOLANA_PAY_TO: payTo, SOLANA_RPC_URL: rpc.url });
  });
  after(async () => {
    await svc.close();
    await rpc.close();
  });

  const newKey = async () => issueKey(svc.service.store.db, { credits: 0, reason: 'test' });

  /** A transaction on the fake node; pays the configured wallet the price in devnet USDC unless told otherwise. */
  async function onChain(spec: Partial<TransferSpec> = {}): Promise<string> {
    const signature = randomSignature();
    rpc.transactions.set(
      signature,
      await transferTransaction({ signature, mint: DEVNET_USDC, recipient: payTo, amount: PRICE, ...spec }),
    );
    return signature;
  }

  test('GET: the terms under accepts (cluster, mint, payTo, its token account, amount, credits)', async () => {
    const res = await svc.get(PATH);
    assert.equal(res.status, 200);
    const body = SolanaTermsResponse.parse(await res.json());
    const terms = body.accepts[0]!;
    assert.equal(terms.cluster, 'devnet');
    assert.equal(terms.mint, DEVNET_USDC);
    assert.equal(terms.payTo, payTo);
    assert.equal(terms.payToTokenAccount, await ataOf(payTo, DEVNET_USDC));
    assert.equal(terms.amount, '19000000');
    assert.equal(terms.uiAmount, '19.000000');
    assert.equal(terms.credits, 100);
    assert.equal(terms.redeem.url, `${svc.url}${PATH}`);
  });

  test('a good payment adds 100 credits once: one grant, one ledger row, X-Credits-Balance', async () => {
    const key = await newKey();
    const signature = await onChain({ recipientBefore: 5_000_000n });
    const settledBefore = await metricValue('payments_total{method="solana",outcome="settled"');
    const res = await redeem(svc.url, key.key, { signature });
    assert.equal(res.status, 200);
    assert.equal(await metricValue('payments_total{method="solana",outcome="settled"'), settledBefore + 1);
    const body = SolanaRedeemResponse.parse(await res.json());
    assert.deepEqual(body, { signature, creditsAdded: 100, balance: 100, amount: '19000000', cluster: 'devnet' });
    assert.equal(res.headers.get('x-credits-balance'), '100');
    assert.equal((await creditState(svc.service.store.db, key.accountId))?.balance, 100);
    const totals = await ledgerTotals(svc.service.store.db, key.accountId);
    assert.deepEqual([totals.granted, totals.entries], [100, 1]);
  });

  test('the transaction is read with jsonParsed, version 0 allowed and a named commitment', async () => {
    const key = await newKey();
    const signature = await onChain();
    assert.equal((await redeem(svc.url, key.key, { signature })).status, 200);
    const call = rpc.requests.findLast((r) => r.method === 'getTransaction' && r.params[0] === signature);
    assert.deepEqual(call?.params[1], {
      encoding: 'jsonParsed',
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    });
  });

  test('a legacy (pre-versioned) transaction is read the same way', async () => {
    const key = await newKey();
    const res = await redeem(svc.url, key.key, { signature: await onChain({ version: 'legacy' }) });
    assert.equal(res.status, 200);
  });

  test('a signature already redeemed answers 409, to another key too, and grants nothing', async () => {
    const [first, second] = [await newKey(), await newKey()];
    const signature = await onChain();
    assert.equal((await redeem(svc.url, first.key, { signature })).status, 200);
    const refusedBefore = await metricValue('payments_total{method="solana",outcome="refused"');
    for (const key of [first, second]) {
      const res = await redeem(svc.url, key.key, { signature });
      assert.equal(res.status, 409);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
    assert.equal(await metricValue('payments_total{method="solana",outcome="refused"'), refusedBefore + 2);
    assert.equal((await creditState(svc.service.store.db, second.accountId))?.balance, 0);
    assert.equal((await creditState(svc.service.store.db, first.accountId))?.balance, 100);
  });

  test('outcomes of the transaction: unknown 402, failed 422, wrong mint 422, wrong recipient 422, underpaid 402', async () => {
    const key = await newKey();
    const cases: [string, Promise<string> | string, number][] = [
      ['unknown', randomSignature(), 402],
      ['failed on-chain', onChain({ failed: true }), 422],
      ['another mint', onChain({ mint: await randomAddress() }), 422],
      ['another recipient', onChain({ recipient: await randomAddress() }), 422],
      ['underpaid', onChain({ amount: PRICE - 1n }), 402],
    ];
    for (const [label, signature, status] of cases) {
      const res = await redeem(svc.url, key.key, { signature: await signature });
      assert.equal(res.status, status, label);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/, label);
    }
    assert.equal((await creditState(svc.service.store.db, key.accountId))?.balance, 0);
    const rows = await svc.service.store.db.selectFrom('solana_redemptions').select('signature').execute();
    for (const [, signature] of cases) assert.ok(!rows.some((r) => r.signature === signature));
  });

  test('a memo binding the payment to an account: only that account may redeem it', async () => {
    const [owner, other] = [await newKey(), await newKey()];
    const credits = await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${owner.key}` } });
    const reference = credits.headers.get('x-account-reference');
    assert.ok(reference);
    const signature = await onChain({ memo: `signal-service:${reference}` });
    assert.equal((await redeem(svc.url, other.key, { signature })).status, 422);
    assert.equal((await redeem(svc.url, owner.key, { signature })).status, 200);
  });

  test('a memo for something else does not bind the payment', async () => {
    const key = await newKey();
    const res = await redeem(svc.url, key.key, { signature: await onChain({ memo: 'invoice 42' }) });
    assert.equal(res.status, 200);
  });

  test('without a valid key: 401 with WWW-Authenticate: Bearer', async () => {
    const signature = await onChain();
    for (const key of [undefined, 'sigsk_not-a-real-key', `sigsk_${'A'.repeat(43)}`]) {
      const res = await redeem(svc.url, key, { signature });
      assert.equal(res.status, 401, String(key));
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
  });

  test('malformed signatures and bodies: 400, never 5xx', async () => {
    const key = await newKey();
    for (const body of [
      { signature: 'not base58 0OIl' },
      { signature: '1111' },
      { signature: randomSignature().slice(0, 40) },
      { signature: 'x'.repeat(101) },
      {},
      { signature: 12 },
      { signature: randomSignature(), extra: true },
      'null',
      '[]',
      '{"signature":',
    ]) {
      const res = await redeem(svc.url, key.key, body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  test('the same payment redeemed concurrently on two server instances sharing the database: exactly one 200', async () => {
    const second: RunningService = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: svc.config.database.dataDir,
        LOG_LEVEL: 'silent',
        DEMO_DATA: 'off',
        SOLANA_PAY_TO: payTo,
        SOLANA_RPC_URL: rpc.url,
        ...(svc.config.database.url ? { DATABASE_URL: svc.config.database.url } : {}),
      }),
      createLogger(loadConfig({ LOG_LEVEL: 'silent' }).server),
    );
    try {
      const keys = await Promise.all(Array.from({ length: 4 }, () => newKey()));
      const signature = await onChain();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => redeem(i % 2 ? svc.url : second.address, keys[i % 4]!.key, { signature })),
      );
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, ...Array(11).fill(409)]);
      const balances = await Promise.all(keys.map((k) => creditState(svc.service.store.db, k.accountId)));
      assert.equal(
        balances.reduce((sum, s) => sum + (s?.balance ?? 0), 0),
        100,
      );
      const ledger = await svc.service.store.db
        .selectFrom('credit_ledger')
        .select('id')
        .where('reference', '=', signature)
        .execute();
      assert.equal(ledger.length, 1);
    } finally {
      await second.close();
    }
  });

  test('the OpenAPI document describes both routes', async () => {
    const doc = (await (await svc.get('/api/openapi.json')).json()) as any;
    assert.equal(doc.paths[PATH].get.operationId, 'getSolanaPaymentTerms');
    assert.deepEqual(Object.keys(doc.paths[PATH].post.responses).sort(), [
      '200',
      '400',
      '401',
      '402',
      '409',
      '422',
      '503',
    ]);
  });
});

describe('Solana credit packs when they cannot be sold', () => {
  let unconfigured: TestService;
  let rpcDown: TestService;
  before(async () => {
    const gone = await startFakeSolanaRpc();
    await gone.close();
    [unconfigured, rpcDown] = await Promise.all([
      startTestService(),
      startTestService({ SOLANA_PAY_TO: await randomAddress(), SOLANA_RPC_URL: gone.url }),
    ]);
  });
  after(() => Promise.all([unconfigured.close(), rpcDown.close()]));

  test('no SOLANA_PAY_TO: GET and POST answer 503', async () => {
    const get = await unconfigured.get(PATH);
    assert.equal(get.status, 503);
    assert.match(((await get.json()) as { detail: string }).detail, /SOLANA_PAY_TO/);
    assert.equal((await redeem(unconfigured.url, undefined, { signature: randomSignature() })).status, 503);
  });

  test('RPC down: 503 with Retry-After, nothing granted', async () => {
    const key = await issueKey(rpcDown.service.store.db, { credits: 0, reason: 'test' });
    const res = await redeem(rpcDown.url, key.key, { signature: randomSignature() });
    assert.equal(res.status, 503);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    assert.equal((await creditState(rpcDown.service.store.db, key.accountId))?.balance, 0);
  });
});
