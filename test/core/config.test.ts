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
});
