import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  test('defaults: port 3000, host 127.0.0.1, BASE_URL from them, ./.data, embedded database', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.baseUrl, 'http://127.0.0.1:3000');
    assert.equal(c.dataDir, path.resolve('./.data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.trustProxy, false);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.demoData, true);
  });

  test('BASE_URL loses its trailing slash', () => {
    assert.equal(loadConfig({ BASE_URL: 'https://signals.example.org/' }).baseUrl, 'https://signals.example.org');
  });

  test('TRUST_PROXY accepts on/off words', () => {
    assert.equal(loadConfig({ TRUST_PROXY: 'on' }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  });

  test('a bad value is refused with a message naming the variable', () => {
    const bad: Record<string, string> = {
      PORT: 'eighty',
      BASE_URL: 'ftp://x',
      DATABASE_URL: 'mysql://x',
      REDIS_URL: 'http://x',
      TRUST_PROXY: 'maybe',
      LOG_LEVEL: 'loud',
    };
    for (const [name, value] of Object.entries(bad)) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === name && err.message.includes(name),
        name,
      );
    }
  });

  test('payments: unconfigured by default, on Base Sepolia with the public test facilitator and Solana devnet USDC', () => {
    const c = loadConfig({});
    assert.equal(c.x402PayTo, undefined);
    assert.equal(c.x402Network, 'base-sepolia');
    assert.equal(c.x402FacilitatorUrl, 'https://x402.org/facilitator');
    assert.deepEqual(c.x402FacilitatorHeaders, {});
    assert.equal(c.solanaPayTo, undefined);
    assert.equal(c.solanaCluster, 'devnet');
    assert.equal(c.solanaRpcUrl, 'https://api.devnet.solana.com');
    assert.equal(c.solanaMint, '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU');
    assert.equal(c.solanaCommitment, 'confirmed');
  });

  test('payments: mainnet-beta defaults to mainnet USDC; testnet has no default mint', () => {
    assert.equal(
      loadConfig({ SOLANA_CLUSTER: 'mainnet-beta' }).solanaMint,
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    );
    assert.throws(
      () => loadConfig({ SOLANA_CLUSTER: 'testnet' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'SOLANA_MINT',
    );
  });

  test('payments: bad addresses and networks are refused with the variable named', () => {
    for (const [name, value] of [
      ['X402_PAY_TO', '0x123'],
      ['X402_NETWORK', 'ethereum'],
      ['SOLANA_PAY_TO', '0OIl'],
      ['SOLANA_CLUSTER', 'localnet'],
      ['SOLANA_COMMITMENT', 'processed'],
    ]) {
      assert.throws(
        () => loadConfig({ [name!]: value! }),
        (err: unknown) => err instanceof ConfigError && err.variable === name,
        name,
      );
    }
  });

  test('X402_FACILITATOR_HEADERS: a JSON object of headers; a bad value is refused without echoing it', () => {
    assert.deepEqual(
      loadConfig({ X402_FACILITATOR_HEADERS: '{"Authorization":"Bearer s3cret"}' }).x402FacilitatorHeaders,
      {
        Authorization: 'Bearer s3cret',
      },
    );
    for (const value of ['Bearer s3cret-token', '["s3cret"]', '{"Authorization": 5, "x": "s3cret"}']) {
      assert.throws(
        () => loadConfig({ X402_FACILITATOR_HEADERS: value }),
        (err: unknown) => err instanceof ConfigError && !err.message.includes('s3cret'),
        value,
      );
    }
  });
});
