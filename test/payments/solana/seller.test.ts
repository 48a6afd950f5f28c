import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { solanaSeller } from '../../../src/payments/solana/seller.js';
import { randomAddress } from '../../helpers/fake-solana-rpc.js';

describe('Solana seller', () => {
  test('without SOLANA_PAY_TO nothing is sold', async () => {
    assert.equal(await solanaSeller(loadConfig({}).solana), undefined);
  });

  test('the configured terms are sold with an RPC client', async () => {
    const payTo = await randomAddress();
    const seller = await solanaSeller(loadConfig({ SOLANA_PAY_TO: payTo }).solana);
    assert.equal(seller?.settings.payTo, payTo);
    assert.equal(typeof seller?.fetchTransaction, 'function');
  });

  test('a mint that is no address stops the start', async () => {
    const solana = { ...loadConfig({ SOLANA_PAY_TO: await randomAddress() }).solana, mint: 'not-an-address' };
    await assert.rejects(solanaSeller(solana));
  });
});
