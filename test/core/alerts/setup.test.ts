import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { alertsSecret } from '../../../src/core/alerts/setup.js';
import { loadConfig } from '../../../src/config.js';

describe('the alerts secret', () => {
  test('is ALERTS_SECRET when set', () => {
    const config = loadConfig({ ALERTS_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://db/signals' });
    assert.equal(alertsSecret(config), 'x'.repeat(40));
  });

  test('with the embedded database, is generated once into DATA_DIR (readable by its owner only) and reused', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alerts-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = alertsSecret(config)!;
      assert.match(first, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(alertsSecret(config), first);
      assert.equal(fs.statSync(path.join(dataDir, 'alerts.secret')).mode & 0o777, 0o600);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('with PostgreSQL and no ALERTS_SECRET there is none: alerts are off', () => {
    assert.equal(alertsSecret(loadConfig({ DATABASE_URL: 'postgres://db/signals' })), undefined);
  });

  test('a short ALERTS_SECRET stops the start without repeating it', () => {
    assert.throws(
      () => loadConfig({ ALERTS_SECRET: 'short-secret' }),
      (err: Error) => /ALERTS_SECRET/.test(err.message) && !err.message.includes('short-secret'),
    );
  });
});
