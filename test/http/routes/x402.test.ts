import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/v1';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DeepSignal, DeepSignalMiss } from '../../../src/schemas/deep-signal.js';
import { X402PaymentRequired, X402PaymentRequiredV2, X402PaymentResponseV2 } from '../../../src/schemas/payments.js';
import type { PaymentRequirements, PaymentRequirementsV2 } from '../../../src/payments/x402/requirements.js';
import { startFakeFacilitator, type FakeFacilitator } from '../../helpers/fake-facilitator.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { testPayer } from '../../helpers/x402-payer.js';
import { metricValue } from '../../helpers/metrics.js';

const PATH = '/api/agent/deep-signal/x402';
const PAY_TO = '0x209693bc6afc0c5328ba36faf03c514ef312287c';

function post(svc: TestApp, body: unknown, headers: Record<string, string> = {}) {
  return svc.get(PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function requirementsOf(svc: TestApp, name: string): Promise<PaymentRequirements> {
  const res = await post(svc, { name });
  assert.equal(res.status, 402);
  return X402PaymentRequired.parse(await res.json()).accepts[0] as PaymentRequirements;
}

const decodeBase64Json = (value: string | null) => JSON.parse(Buffer.from(value!, 'base64').toString('utf8'));

/** The x402 v2 offer of a 402, from its PAYMENT-REQUIRED header. */
async function offerOf(svc: TestApp, name: string): Promise<PaymentRequirementsV2> {
  const res = await post(svc, { name });
  assert.equal(res.status, 402);
  return X402PaymentRequiredV2.parse(decodeBase64Json(res.headers.get('payment-required'))).accepts[0]!;
}

describe('POST /api/agent/deep-signal/x402', () => {
  let svc: TestApp;
  let facilitator: FakeFacilitator;
  let tracked: string;
  before(async () => {
    facilitator = await startFakeFacilitator();
    svc = await startTestApp({
      X402_PAY_TO: PAY_TO,
      X402_FACILITATOR_URL: facilitator.url,
      X402_FACILITATOR_HEADERS: '{"Authorization":"Bearer facilitator-test-secret"}',
      X402_RPC_URL: facilitator.rpcUrl,
    });
    tracked = svc.service.holder.current!.startups[0]!.startup.name;
  });
  after(async () => {
    await svc.close();
    await facilitator.close();
  });

  const settlementsOf = (nonce: string) =>
    svc.service.store.db.selectFrom('x402_payments').selectAll().where('nonce', '=', nonce.toLowerCase()).execute();

  test('without X-PAYMENT: 402 with the x402 v1 requirements every reference-client check needs', async () => {
    const res = await post(svc, { name: tracked });
    assert.equal(res.status, 402);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as Record<string, any>;
    assert.deepEqual(Object.keys(body).sort(), ['accepts', 'error', 'x402Version']);
    assert.equal(body.x402Version, 1);
    assert.equal(typeof body.error, 'string');
    assert.equal(body.accepts.length, 1);
    const req = body.accepts[0];
    assert.equal(req.scheme, 'exact');
    assert.equal(req.network, 'base-sepolia');
    assert.equal(req.maxAmountRequired, '190000');
    assert.equal(req.resource, `${svc.url}${PATH}`);
    assert.equal(req.mimeType, 'application/json');
    assert.ok(req.description.length > 0);
    assert.equal(req.payTo, getAddress(PAY_TO));
    assert.notEqual(req.payTo, PAY_TO, 'payTo is checksummed, not echoed');
    assert.equal(req.asset, '0x036CbD53842c5426634e7929541eC2318f3dCF7e');
    assert.ok(Number.isInteger(req.maxTimeoutSeconds) && req.maxTimeoutSeconds > 0);
    assert.deepEqual(req.extra, { name: 'USDC', version: '2' });
    assert.equal(typeof req.outputSchema, 'object');
    assert.notEqual(req.outputSchema, null);
    assert.equal(req.outputSchema.input.method, 'POST');
  });

  test('a paid call for a tracked startup: 200 DeepSignal, X-PAYMENT-RESPONSE, one settlement recorded', async () => {
    const payer = testPayer();
    const { header, nonce } = await payer.pay(await requirementsOf(svc, tracked));
    const settledBefore = await metricValue('payments_total{method="x402",outcome="settled"');
    const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
    assert.equal(res.status, 200);
    assert.equal(await metricValue('payments_total{method="x402",outcome="settled"'), settledBefore + 1);
    const body = DeepSignal.parse(await res.json());
    assert.equal(body.name, tracked);
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /X-PAYMENT-RESPONSE/i);
    const receipt = JSON.parse(Buffer.from(res.headers.get('x-payment-response')!, 'base64').toString('utf8'));
    assert.deepEqual(Object.keys(receipt).sort(), ['network', 'payer', 'success', 'transaction', 'txHash']);
    assert.equal(receipt.success, true);
    assert.equal(receipt.network, 'base-sepolia');
    assert.equal(receipt.payer, payer.address);
    assert.equal(receipt.txHash, receipt.transaction);
    const settled = facilitator.settled.get(receipt.txHash);
    assert.equal(settled?.nonce, nonce);
    assert.equal(settled?.value, '190000');
    const [row] = await settlementsOf(nonce);
    assert.equal(row?.status, 'settled');
    assert.equal(row?.tx_hash, receipt.txHash);
    assert.equal(row?.payer, payer.address.toLowerCase());
    assert.equal(row?.amount, '190000');
    assert.equal(row?.startup, svc.service.holder.current!.startups[0]!.login);
  });

  test('the reference client (@x402/fetch 2.x quick start: x402 v2 by default) pays once and reads the settlement', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: account });
    const payingFetch = wrapFetchWithPayment(svc.fetch, client);
    const settlesBefore = facilitator.settleCalls().length;
    const res = await payingFetch(`${svc.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: tracked }),
    });
    assert.equal(res.status, 200);
    assert.equal(DeepSignal.parse(await res.json()).name, tracked);
    assert.equal(res.headers.get('x-payment-response'), null);
    const settlement = X402PaymentResponseV2.parse(decodePaymentResponseHeader(res.headers.get('payment-response')!));
    assert.equal(settlement.payer, account.address);
    assert.equal(settlement.network, 'eip155:84532');
    assert.ok(facilitator.settled.has(settlement.transaction));
    const settles = facilitator.settleCalls();
    assert.equal(settles.length, settlesBefore + 1);
    assert.equal(settles.at(-1)!.body.x402Version, 2);
    assert.equal(settles.at(-1)!.body.paymentRequirements.network, 'eip155:84532');
  });

  test('the reference client’s v1 scheme (@x402/fetch reading the v1 body, as v1 clients do) pays once with X-PAYMENT', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const client = new x402Client().registerV1('base-sepolia', new ExactEvmSchemeV1(account));
    const http = new x402HTTPClient(client);
    const quote = await post(svc, { name: tracked });
    // A v1 client reads the body only (no PAYMENT-REQUIRED header).
    const required = http.getPaymentRequiredResponse(() => null, await quote.json());
    assert.equal(required.x402Version, 1);
    const payload = await client.createPaymentPayload(required);
    const paymentHeaders = http.encodePaymentSignatureHeader(payload);
    assert.deepEqual(Object.keys(paymentHeaders), ['X-PAYMENT']);
    const settlesBefore = facilitator.settleCalls().length;
    const res = await post(svc, { name: tracked }, paymentHeaders);
    assert.equal(res.status, 200);
    assert.equal(DeepSignal.parse(await res.json()).name, tracked);
    const settlement = http.getPaymentSettleResponse((name) => res.headers.get(name));
    assert.equal(settlement.success, true);
    assert.equal(settlement.payer, account.address);
    assert.ok(facilitator.settled.has(settlement.transaction));
    assert.equal(facilitator.settleCalls().length, settlesBefore + 1);
    assert.equal(facilitator.settleCalls().at(-1)!.body.x402Version, 1);
  });

  test('a 402 carries the v2 offer in PAYMENT-REQUIRED: the same price, recipient and token, the network by CAIP-2 id', async () => {
    const res = await post(svc, { name: tracked });
    assert.equal(res.status, 402);
    const v1 = X402PaymentRequired.parse(await res.json()).accepts[0]!;
    const v2 = X402PaymentRequiredV2.parse(decodeBase64Json(res.headers.get('payment-required')));
    assert.equal(v2.x402Version, 2);
    assert.deepEqual(v2.resource, {
      url: `${svc.url}${PATH}`,
      description: v1.description,
      mimeType: 'application/json',
    });
    assert.deepEqual(v2.accepts, [
      {
        scheme: 'exact',
        network: 'eip155:84532',
        amount: '190000',
        asset: v1.asset,
        payTo: v1.payTo,
        maxTimeoutSeconds: v1.maxTimeoutSeconds,
        extra: { name: 'USDC', version: '2' },
      },
    ]);
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /PAYMENT-REQUIRED/);
  });

  test('a v2 payment (PAYMENT-SIGNATURE) for a tracked startup: 200, PAYMENT-RESPONSE, one settlement recorded', async () => {
    const payer = testPayer();
    const { header, nonce } = await payer.payV2(await offerOf(svc, tracked));
    const res = await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': header });
    assert.equal(res.status, 200);
    const receipt = X402PaymentResponseV2.parse(decodeBase64Json(res.headers.get('payment-response')));
    assert.deepEqual(
      { ...receipt, transaction: undefined },
      { success: true, transaction: undefined, network: 'eip155:84532', payer: payer.address, amount: '190000' },
    );
    const [row] = await settlementsOf(nonce);
    assert.deepEqual([row?.status, row?.tx_hash, row?.x402_version], ['settled', receipt.transaction, 2]);
    assert.ok(row?.delivered_at);
  });

  test('one authorization is settled once whichever version presents it (v2, then the same as v1)', async () => {
    const payer = testPayer();
    const nonce = `0x${'7'.repeat(64)}` as const;
    const { header: v2 } = await payer.payV2(await offerOf(svc, tracked), { nonce });
    const { header: v1 } = await payer.pay(await requirementsOf(svc, tracked), { nonce });
    assert.equal((await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': v2 })).status, 200);
    const settlesBefore = facilitator.settleCalls().length;
    const again = await post(svc, { name: tracked }, { 'X-PAYMENT': v1 });
    assert.equal(again.status, 402);
    assert.equal(((await again.json()) as { error: string }).error, 'authorization_already_used');
    assert.equal(facilitator.settleCalls().length, settlesBefore);
  });

  test('a v2 payment whose accepted entry is not the offer: 402 invalid_payment_requirements, the facilitator not asked', async () => {
    const offer = await offerOf(svc, tracked);
    const { header } = await testPayer().payV2({ ...offer, amount: '1000' }, { value: '190000' });
    const callsBefore = facilitator.calls.length;
    const res = await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': header });
    assert.equal(res.status, 402);
    assert.equal(X402PaymentRequired.parse(await res.json()).error, 'invalid_payment_requirements');
    assert.equal(decodeBase64Json(res.headers.get('payment-required')).error, 'invalid_payment_requirements');
    assert.equal(facilitator.calls.length, callsBefore);
  });

  test('both payment headers at once: 400', async () => {
    const payer = testPayer();
    const { header: v2 } = await payer.payV2(await offerOf(svc, tracked));
    const { header: v1 } = await payer.pay(await requirementsOf(svc, tracked));
    const res = await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': v2, 'X-PAYMENT': v1 });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  });

  test('a malformed PAYMENT-SIGNATURE: 400, never 5xx', async () => {
    for (const header of ['%%%', Buffer.from('{"x402Version":2}').toString('base64'), 'A'.repeat(13_000)]) {
      const res = await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': header });
      assert.equal(res.status, 400, header.slice(0, 20));
    }
  });

  test('the facilitator receives the configured auth headers and the single requirements object', async () => {
    const { header } = await testPayer().pay(await requirementsOf(svc, tracked));
    const before = facilitator.calls.length;
    assert.equal((await post(svc, { name: tracked }, { 'X-PAYMENT': header })).status, 200);
    const [verify, settle] = facilitator.calls.slice(before);
    assert.equal(verify?.path, '/verify');
    assert.equal(settle?.path, '/settle');
    assert.equal(verify?.headers.authorization, 'Bearer facilitator-test-secret');
    assert.equal(verify?.body.x402Version, 1);
    assert.equal(verify?.body.paymentRequirements.payTo, getAddress(PAY_TO));
  });

  test('an untracked startup: 404 found:false, verified but never settled', async () => {
    const { header, nonce } = await testPayer().pay(await requirementsOf(svc, 'Zzqx Nonexistent Labs'));
    const settlesBefore = facilitator.settleCalls().length;
    const res = await post(svc, { name: 'Zzqx Nonexistent Labs' }, { 'X-PAYMENT': header });
    assert.equal(res.status, 404);
    assert.deepEqual(DeepSignalMiss.parse(await res.json()), { found: false, charged: 0 });
    assert.equal(res.headers.get('x-payment-response'), null);
    assert.equal(facilitator.settleCalls().length, settlesBefore);
    assert.deepEqual(await settlementsOf(nonce), []);
  });

  test('a payment to another recipient: 402, the facilitator is not asked', async () => {
    const requirements = await requirementsOf(svc, tracked);
    const { header } = await testPayer().pay(requirements, { to: '0x1111111111111111111111111111111111111111' });
    const callsBefore = facilitator.calls.length;
    const refusedBefore = await metricValue('payments_total{method="x402",outcome="refused"');
    const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
    assert.equal(res.status, 402);
    assert.equal(await metricValue('payments_total{method="x402",outcome="refused"'), refusedBefore + 1);
    const body = X402PaymentRequired.parse(await res.json());
    assert.equal(body.error, 'invalid_exact_evm_payload_recipient_mismatch');
    assert.equal(facilitator.calls.length, callsBefore);
  });

  test('too little value: 402 and no settlement', async () => {
    const { header } = await testPayer().pay(await requirementsOf(svc, tracked), { value: '189999' });
    const settlesBefore = facilitator.settleCalls().length;
    const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
    assert.equal(res.status, 402);
    assert.equal(X402PaymentRequired.parse(await res.json()).error, 'invalid_exact_evm_payload_authorization_value');
    assert.equal(facilitator.settleCalls().length, settlesBefore);
  });

  test('an expired authorization: 402', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { header } = await testPayer().pay(await requirementsOf(svc, tracked), {
      validAfter: String(now - 3600),
      validBefore: String(now - 60),
    });
    const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
    assert.equal(res.status, 402);
    assert.equal(
      X402PaymentRequired.parse(await res.json()).error,
      'invalid_exact_evm_payload_authorization_valid_before',
    );
  });

  test('a signature by another wallet: the facilitator refuses it and the answer is 402', async () => {
    const requirements = await requirementsOf(svc, tracked);
    const real = testPayer();
    const { header } = await testPayer().pay(requirements);
    // Swap in another payer's address: the signature no longer matches `from`.
    const forged = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    forged.payload.authorization.from = real.address;
    const res = await post(
      svc,
      { name: tracked },
      { 'X-PAYMENT': Buffer.from(JSON.stringify(forged)).toString('base64') },
    );
    assert.equal(res.status, 402);
    assert.equal(X402PaymentRequired.parse(await res.json()).error, 'invalid_exact_evm_payload_signature');
  });

  test('a replayed authorization is refused before the facilitator and the handler', async () => {
    const { header } = await testPayer().pay(await requirementsOf(svc, tracked));
    assert.equal((await post(svc, { name: tracked }, { 'X-PAYMENT': header })).status, 200);
    const callsBefore = facilitator.calls.length;
    const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
    assert.equal(res.status, 402);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.error, 'authorization_already_used');
    assert.equal(body.thesis, undefined);
    assert.equal(facilitator.calls.length, callsBefore);
  });

  test('the same authorization sent twice at once is settled once and answered once', async () => {
    const { header } = await testPayer().pay(await requirementsOf(svc, tracked));
    const settlesBefore = facilitator.settleCalls().length;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(svc, { name: tracked }, { 'X-PAYMENT': header })),
    );
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
    // The others are refused (402, already used) or told to retry while the first is settling (503 + Retry-After).
    for (const res of answers.filter((r) => r.status !== 200)) {
      assert.ok(res.status === 402 || (res.status === 503 && Number(res.headers.get('retry-after')) > 0));
    }
    assert.equal(facilitator.settleCalls().length, settlesBefore + 1);
  });

  test('a refused settlement: 402 without the paid body, and the authorization is freed', async () => {
    const { header, nonce } = await testPayer().pay(await requirementsOf(svc, tracked));
    facilitator.failSettle = true;
    try {
      const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      assert.equal(res.status, 402);
      const body = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['accepts', 'error', 'x402Version']);
      assert.equal(body.error, 'insufficient_funds');
      assert.equal(res.headers.get('x-payment-response'), null);
      assert.deepEqual(await settlementsOf(nonce), []);
    } finally {
      facilitator.failSettle = false;
    }
  });

  describe('a settlement whose outcome is not known', () => {
    const stale = (nonce: string) =>
      svc.service.store.db
        .updateTable('x402_payments')
        .set({ reserved_at: new Date(Date.now() - 120_000) })
        .where('nonce', '=', nonce.toLowerCase())
        .execute();

    test('the facilitator settled but its answer was lost: 503, then a retry with the same payment is answered without a second settlement', async () => {
      const { header, nonce } = await testPayer().pay(await requirementsOf(svc, tracked));
      facilitator.loseSettleAnswer = true;
      let res: Response;
      try {
        res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      } finally {
        facilitator.loseSettleAnswer = false;
      }
      assert.equal(res.status, 503);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.match(((await res.json()) as { detail: string }).detail, /same payment header/);
      assert.equal((await settlementsOf(nonce))[0]?.status, 'pending');
      const settlesBefore = facilitator.settleCalls().length;
      const retry = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      assert.equal(retry.status, 200);
      assert.equal(DeepSignal.parse(await retry.json()).name, tracked);
      const receipt = decodeBase64Json(retry.headers.get('x-payment-response'));
      assert.ok(facilitator.settled.has(receipt.transaction), 'the transaction found on-chain');
      assert.equal(facilitator.settleCalls().length, settlesBefore, 'not settled again');
      const [row] = await settlementsOf(nonce);
      assert.deepEqual([row?.status, row?.tx_hash], ['settled', receipt.transaction]);
      assert.ok(row?.delivered_at);
      const third = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      assert.equal(third.status, 402, 'answered once');
    });

    test('the facilitator never settled (connection dropped): the retry settles it, once', async () => {
      const { header } = await testPayer().payV2(await offerOf(svc, tracked));
      facilitator.dropSettle = true;
      try {
        assert.equal((await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': header })).status, 503);
      } finally {
        facilitator.dropSettle = false;
      }
      const settledBefore = facilitator.settled.size;
      const retry = await post(svc, { name: tracked }, { 'PAYMENT-SIGNATURE': header });
      assert.equal(retry.status, 200);
      assert.ok(retry.headers.get('payment-response'));
      assert.equal(facilitator.settled.size, settledBefore + 1);
    });

    test('a reservation held by a request in flight: a retry is told to come back (503, Retry-After), not refused', async () => {
      const { header, nonce } = await testPayer().pay(await requirementsOf(svc, tracked));
      facilitator.loseSettleAnswer = true;
      try {
        await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      } finally {
        facilitator.loseSettleAnswer = false;
      }
      // As a crashed instance leaves it: reserved just now, by a request that will never finish.
      await svc.service.store.db
        .updateTable('x402_payments')
        .set({ reserved_at: new Date() })
        .where('nonce', '=', nonce.toLowerCase())
        .execute();
      const early = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      assert.equal(early.status, 503);
      const wait = Number(early.headers.get('retry-after'));
      assert.ok(wait > 0 && wait <= 30, String(wait));
      await stale(nonce);
      assert.equal((await post(svc, { name: tracked }, { 'X-PAYMENT': header })).status, 200);
    });

    test('a paid answer is given only for the startup that was paid for', async () => {
      const { header, nonce } = await testPayer().pay(await requirementsOf(svc, tracked));
      facilitator.loseSettleAnswer = true;
      try {
        await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      } finally {
        facilitator.loseSettleAnswer = false;
      }
      await stale(nonce);
      const other = svc.service.holder.current!.startups[1]!.startup.name;
      const res = await post(svc, { name: other }, { 'X-PAYMENT': header });
      assert.equal(res.status, 402);
      assert.equal((await post(svc, { name: tracked }, { 'X-PAYMENT': header })).status, 200);
    });

    test('the token contract cannot be asked: 503 with Retry-After, nothing decided', async () => {
      const { header, nonce } = await testPayer().pay(await requirementsOf(svc, tracked));
      facilitator.loseSettleAnswer = true;
      try {
        await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      } finally {
        facilitator.loseSettleAnswer = false;
      }
      facilitator.chainDown = true;
      try {
        const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
        assert.equal(res.status, 503);
        assert.ok(Number(res.headers.get('retry-after')) > 0);
      } finally {
        facilitator.chainDown = false;
      }
      assert.equal((await settlementsOf(nonce))[0]?.status, 'pending');
      await stale(nonce);
      assert.equal((await post(svc, { name: tracked }, { 'X-PAYMENT': header })).status, 200);
    });
  });

  test('malformed X-PAYMENT headers answer 400, never 5xx', async () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    for (const header of [
      'not base64 at all!',
      Buffer.from('{not json').toString('base64'),
      json(null),
      json([1, 2]),
      json({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: {} }),
      json({
        x402Version: 1,
        scheme: 'exact',
        network: 'base-sepolia',
        payload: { signature: '0x12', authorization: { from: '0x1', to: PAY_TO, value: '-1' } },
      }),
      'A'.repeat(13_000),
    ]) {
      const res = await post(svc, { name: tracked }, { 'X-PAYMENT': header });
      assert.equal(res.status, 400, header.slice(0, 40));
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
  });

  test('another x402 version, scheme or network: 402 with the requirements to use', async () => {
    const requirements = await requirementsOf(svc, tracked);
    const { header } = await testPayer().pay(requirements);
    const payment = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    for (const [field, value, reason] of [
      ['x402Version', 2, 'invalid_x402_version'],
      ['scheme', 'upto', 'unsupported_scheme'],
      ['network', 'base', 'invalid_network'],
    ] as const) {
      const altered = Buffer.from(JSON.stringify({ ...payment, [field]: value })).toString('base64');
      const res = await post(svc, { name: tracked }, { 'X-PAYMENT': altered });
      assert.equal(res.status, 402, field);
      assert.equal(X402PaymentRequired.parse(await res.json()).error, reason);
    }
  });

  test('the body is validated first: a bad body is a 400 even without payment', async () => {
    for (const body of [
      '{}',
      '{"name":""}',
      JSON.stringify({ name: 'x'.repeat(101) }),
      '[1]',
      'null',
      '{"name":',
      '{"name":"a","extra":1}',
    ]) {
      const res = await post(svc, body);
      assert.equal(res.status, 400, body.slice(0, 30));
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
  });

  test('the OpenAPI document describes the route with its 402 requirements', async () => {
    const doc = (await (await svc.get('/api/openapi.json')).json()) as any;
    const op = doc.paths[PATH].post;
    assert.equal(op.operationId, 'postDeepSignalX402');
    assert.deepEqual(Object.keys(op.responses).sort(), ['200', '400', '402', '404', '503']);
    assert.ok(op.responses['200'].headers['X-PAYMENT-RESPONSE']);
  });
});

describe('POST /api/agent/deep-signal/x402 when it cannot take payments', () => {
  let unconfigured: TestApp;
  let deadFacilitator: TestApp;
  before(async () => {
    const gone = await startFakeFacilitator();
    await gone.close();
    [unconfigured, deadFacilitator] = await Promise.all([
      startTestApp(),
      startTestApp({ X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: gone.url }),
    ]);
  });
  after(async () => {
    await Promise.all([unconfigured.close(), deadFacilitator.close()]);
  });

  test('no X402_PAY_TO: 503 with a clear problem body', async () => {
    const res = await post(unconfigured, { name: 'anything' });
    assert.equal(res.status, 503);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(((await res.json()) as { detail: string }).detail, /X402_PAY_TO/);
  });

  test('facilitator down: 503 with Retry-After, nothing recorded', async () => {
    const name = deadFacilitator.service.holder.current!.startups[0]!.startup.name;
    const { header } = await testPayer().pay(await requirementsOf(deadFacilitator, name));
    const res = await post(deadFacilitator, { name }, { 'X-PAYMENT': header });
    assert.equal(res.status, 503);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    const rows = await deadFacilitator.service.store.db.selectFrom('x402_payments').selectAll().execute();
    assert.deepEqual(rows, []);
  });
});
