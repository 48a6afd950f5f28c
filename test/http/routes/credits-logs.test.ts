import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { issueKey, type CreatedKey } from '../../../src/payments/keys.js';
import { startService, type RunningService } from '../../../src/service.js';
import { createTestStorage, type TestStorage } from '../../helpers/database.js';

describe('credit-pack keys never reach the logs', () => {
  let storage: TestStorage;
  let service: RunningService;
  const lines: string[] = [];

  before(async () => {
    storage = await createTestStorage({ contents: 'demo' });
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: storage.dataDir,
      LOG_LEVEL: 'trace',
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    service = await startService(config, createLogger(config.server, 'test', sink));
  });
  after(async () => {
    await service.close();
    await storage.cleanup();
  });

  test('valid, revoked-looking, empty-balance and malformed keys leave no trace in the captured logs', async () => {
    const keys: CreatedKey[] = [
      await issueKey(service.store.db, { credits: 2, reason: 'test' }),
      await issueKey(service.store.db, { credits: 0, reason: 'test' }),
    ];
    const unknown = `sigsk_${'Z'.repeat(43)}`;
    const name = service.holder.current!.startups[0]!.startup.name;
    const presented = [...keys.map((k) => k.key), unknown, `${keys[0]!.key}-tampered`];
    for (const key of presented) {
      for (const body of [JSON.stringify({ name }), '{"name":', 'null']) {
        const res = await fetch(`${service.address}/api/agent/deep-signal`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'k1' },
          body,
        });
        await res.arrayBuffer();
      }
      await (
        await fetch(`${service.address}/api/account/credits`, { headers: { authorization: `Bearer ${key}` } })
      ).arrayBuffer();
    }
    const captured = lines.join('');
    assert.ok(captured.length > 0, 'the logger captured something');
    for (const key of presented) assert.ok(!captured.includes(key.slice(6, 30)), 'a key appears in the logs');
  });
});
