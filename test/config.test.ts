import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  test('defaults: port 3000, host 127.0.0.1, BASE_URL from them, ./.data, embedded database', () => {
    const c = loadConfig({});
    assert.equal(c.server.port, 3000);
    assert.equal(c.server.host, '127.0.0.1');
    assert.equal(c.server.baseUrl, 'http://127.0.0.1:3000');
    assert.equal(c.database.dataDir, path.resolve('./.data'));
    assert.equal(c.database.url, undefined);
    assert.equal(c.redis.url, undefined);
    assert.equal(c.server.trustProxy, false);
    assert.equal(c.server.logLevel, 'info');
    assert.equal(c.demo.enabled, true);
  });

  test('BASE_URL loses its trailing slash', () => {
    assert.equal(
      loadConfig({ BASE_URL: 'https://signals.example.org/' }).server.baseUrl,
      'https://signals.example.org',
    );
  });

  test('TRUST_PROXY accepts on/off words', () => {
    assert.equal(loadConfig({ TRUST_PROXY: 'on' }).server.trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).server.trustProxy, false);
  });

  test('TRUST_PROXY accepts a hop count', () => {
    assert.equal(loadConfig({ TRUST_PROXY: '1' }).server.trustProxy, 1);
    assert.equal(loadConfig({ TRUST_PROXY: '3' }).server.trustProxy, 3);
  });

  test('TRUST_PROXY accepts a list of addresses, CIDR ranges and named ranges', () => {
    assert.deepEqual(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8, Loopback,linklocal,uniquelocal' }).server
        .trustProxy,
      ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', 'loopback', 'linklocal', 'uniquelocal'],
    );
  });

  test('TRUST_PROXY refuses a host name, a bad prefix length and a bad address, naming the entry', () => {
    for (const value of ['proxy.example.org', '10.0.0.0/33', '::1/129', '300.1.1.1', '10.0.0.0/8/1', '99']) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'TRUST_PROXY',
        value,
      );
    }
  });

  test('rate limits default to the spec and are read as PER_MINUTE/BURST', () => {
    const c = loadConfig({});
    assert.equal(c.rateLimiting.enabled, true);
    assert.deepEqual(c.rateLimits, {
      free: { perMinute: 60, burst: 120 },
      signal: { perMinute: 30, burst: 60 },
      receipts: { perMinute: 10, burst: 20 },
      export: { perMinute: 4, burst: 8 },
      paid: { perMinute: 120, burst: 240 },
    });
    assert.deepEqual(loadConfig({ RATE_LIMIT_PAID: '5 / 9' }).rateLimits.paid, { perMinute: 5, burst: 9 });
  });

  test('operations defaults: no metrics exposed, no access log, bounded database pool and timeouts', () => {
    const c = loadConfig({});
    assert.equal(c.metrics.port, undefined);
    assert.equal(c.metrics.token, undefined);
    assert.equal(c.server.accessLog, false);
    assert.equal(c.database.poolMax, 8);
    assert.equal(c.database.statementTimeoutMs, 15000);
    assert.equal(c.database.connectTimeoutMs, 3000);
  });

  test('connection defaults: deadlines in the tens of seconds, a cap per address', () => {
    const c = loadConfig({});
    assert.equal(c.server.headersTimeoutMs, 10_000);
    assert.equal(c.server.requestTimeoutMs, 30_000);
    assert.equal(c.server.idleTimeoutMs, 30_000);
    assert.equal(c.server.maxConnectionsPerAddress, 128);
    assert.throws(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' }), /HTTP_REQUEST_TIMEOUT_MS/);
  });

  test('a bad value is refused with a message naming the variable', () => {
    const bad: Record<string, string> = {
      PORT: 'eighty',
      BASE_URL: 'ftp://x',
      DATABASE_URL: 'mysql://x',
      REDIS_URL: 'http://x',
      TRUST_PROXY: 'maybe',
      LOG_LEVEL: 'loud',
      RATE_LIMIT_FREE: '120/60',
      RATE_LIMIT_SIGNAL: 'lots',
      RATE_LIMIT_PAID: '0/10',
      METRICS_PORT: '70000',
      METRICS_TOKEN: 'short',
      ACCESS_LOG: 'verbose',
      DATABASE_POOL_MAX: '0',
    };
    for (const [name, value] of Object.entries(bad)) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === name && err.message.includes(name),
        name,
      );
    }
  });

  test('METRICS_TOKEN is a Bearer token (token68): other printable characters are refused', () => {
    const token = 'a'.repeat(20) + '-._~+/==';
    assert.equal(loadConfig({ METRICS_TOKEN: token }).metrics.token, token);
    for (const bad of [
      'a'.repeat(20) + '!',
      'a'.repeat(20) + '#',
      'a'.repeat(10) + ' ' + 'a'.repeat(10),
      'a'.repeat(257),
    ])
      assert.throws(
        () => loadConfig({ METRICS_TOKEN: bad }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'METRICS_TOKEN',
        bad,
      );
  });

  test('payments: unconfigured by default, on Base Sepolia with the public test facilitator and Solana devnet USDC', () => {
    const c = loadConfig({});
    assert.equal(c.x402.payTo, undefined);
    assert.equal(c.x402.network, 'base-sepolia');
    assert.equal(c.x402.facilitatorUrl, 'https://x402.org/facilitator');
    assert.deepEqual(c.x402.facilitatorHeaders, {});
    assert.equal(c.solana.payTo, undefined);
    assert.equal(c.solana.cluster, 'devnet');
    assert.equal(c.solana.rpcUrl, 'https://api.devnet.solana.com');
    assert.equal(c.solana.mint, '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU');
    assert.equal(c.solana.commitment, 'confirmed');
  });

  test('payments: mainnet-beta defaults to mainnet USDC; testnet has no default mint', () => {
    assert.equal(
      loadConfig({ SOLANA_CLUSTER: 'mainnet-beta' }).solana.mint,
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
      loadConfig({ X402_FACILITATOR_HEADERS: '{"Authorization":"Bearer s3cret"}' }).x402.facilitatorHeaders,
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
