import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { rpcAuthorizationChain } from '../../../src/payments/x402/chain.js';
import { X402_NETWORKS } from '../../../src/payments/x402/networks.js';
import { EXPIRY_MARGIN_SECONDS, reconcilePending } from '../../../src/payments/x402/reconcile.js';
import {
  authorizationKey,
  findAuthorization,
  reserveAuthorization,
  type AuthorizationKey,
} from '../../../src/payments/x402/records.js';
import { startFakeFacilitator, type FakeFacilitator } from '../../helpers/fake-facilitator.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { metricValue } from '../../helpers/metrics.js';

const ASSET = X402_NETWORKS['base-sepolia'].usdc;

describe('x402 reconciliation of settlements left pending', () => {
  let app: TestApp;
  let chainFake: FakeFacilitator;
  const now = () => Math.floor(Date.now() / 1000);
  const deps = () => ({ db: app.service.store.db, chain: rpcAuthorizationChain(chainFake.rpcUrl) });

  before(async () => {
    chainFake = await startFakeFacilitator();
    app = await startTestApp();
  });
  after(async () => {
    await app.close();
    await chainFake.close();
  });

  /** A reservation as a lost request leaves it: pending, reserved `ageSeconds` ago. */
  async function pending(options: { validBefore: number; ageSeconds: number }) {
    const payer = privateKeyToAccount(generatePrivateKey()).address;
    const nonce = `0x${randomBytes(32).toString('hex')}`;
    const key: AuthorizationKey = authorizationKey('base-sepolia', ASSET, { from: payer, nonce });
    const id = await reserveAuthorization(app.service.store.db, key, {
      amount: '190000',
      startup: 'acme',
      validBefore: String(options.validBefore),
      version: 1,
      signatureHash: 'x',
    });
    await app.service.store.db
      .updateTable('x402_payments')
      .set({ reserved_at: new Date(Date.now() - options.ageSeconds * 1000) })
      .where('id', '=', id!)
      .execute();
    return { key, payer, nonce };
  }
  const rowOf = (key: AuthorizationKey) => findAuthorization(app.service.store.db, key);

  test('a used nonce: the transfer happened, so the row is settled with its transaction and left undelivered', async () => {
    const { key, payer, nonce } = await pending({ validBefore: now() + 60, ageSeconds: 120 });
    const tx = chainFake.execute(payer, nonce);
    const before = await metricValue('payments_total{method="x402",outcome="reconciled-paid"');
    await reconcilePending(deps());
    const row = await rowOf(key);
    assert.deepEqual([row?.status, row?.tx_hash, row?.delivered_at], ['settled', tx, null]);
    assert.equal(await metricValue('payments_total{method="x402",outcome="reconciled-paid"'), before + 1);
  });

  test('an unused nonce past its validBefore: nothing was or can be charged, so the row is dropped', async () => {
    const { key } = await pending({ validBefore: now() - EXPIRY_MARGIN_SECONDS - 10, ageSeconds: 600 });
    await reconcilePending(deps());
    assert.equal(await rowOf(key), undefined);
  });

  test('an unused nonce still valid: left pending (it may yet be settled) and marked checked', async () => {
    const { key } = await pending({ validBefore: now() + 3600, ageSeconds: 120 });
    await reconcilePending(deps());
    const row = await rowOf(key);
    assert.equal(row?.status, 'pending');
    assert.ok(row?.checked_at);
  });

  test('expiry waits for the margin (a lagging RPC node may not show a last-moment transfer yet)', async () => {
    const { key } = await pending({ validBefore: now() - 5, ageSeconds: 120 });
    await reconcilePending(deps());
    assert.equal((await rowOf(key))?.status, 'pending');
  });

  test('a reservation still held by its request is not touched', async () => {
    const { key, payer, nonce } = await pending({ validBefore: now() + 60, ageSeconds: 1 });
    chainFake.execute(payer, nonce);
    await reconcilePending(deps());
    const row = await rowOf(key);
    assert.deepEqual([row?.status, row?.checked_at], ['pending', null]);
  });

  test('a token contract that cannot be asked decides nothing', async () => {
    const { key, payer, nonce } = await pending({ validBefore: now() - 3600, ageSeconds: 7200 });
    chainFake.execute(payer, nonce);
    chainFake.chainDown = true;
    try {
      const result = await reconcilePending(deps());
      assert.ok(result.open >= 1);
    } finally {
      chainFake.chainDown = false;
    }
    assert.equal((await rowOf(key))?.status, 'pending');
    await reconcilePending(deps());
    assert.equal((await rowOf(key))?.status, 'settled');
  });
});
