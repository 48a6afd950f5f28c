import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  authenticate,
  authenticateKey,
  bearerToken,
  KEY_NOT_VALID,
  KEY_REQUIRED,
} from '../../src/payments/authenticate.js';
import { issueKey, revokeKey } from '../../src/payments/keys.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';

describe('the Bearer rule', () => {
  test('reads the token of "Bearer <token>"', () => {
    assert.equal(bearerToken('Bearer sigsk_abc-DEF_123'), 'sigsk_abc-DEF_123');
  });

  test('the scheme is case-insensitive', () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) assert.equal(bearerToken(`${scheme} abc`), 'abc', scheme);
  });

  test('a token may use every token68 character and end in = padding', () => {
    assert.equal(bearerToken('Bearer aZ09-._~+/=='), 'aZ09-._~+/==');
  });

  test('no header, an empty one or another scheme has no token', () => {
    for (const header of [undefined, '', 'Basic YTpi', 'Token abc', 'Bearerabc']) {
      assert.equal(bearerToken(header), undefined, String(header));
    }
  });

  test('the scheme alone has no token', () => {
    for (const header of ['Bearer', 'Bearer ']) assert.equal(bearerToken(header), undefined, header);
  });

  test('exactly one space separates scheme and token', () => {
    for (const header of ['Bearer  abc', 'Bearer\tabc', ' Bearer abc']) {
      assert.equal(bearerToken(header), undefined, JSON.stringify(header));
    }
  });

  test('nothing may follow the token, not even whitespace', () => {
    for (const header of ['Bearer abc ', 'Bearer abc def', 'Bearer abc,Bearer def', 'Bearer abc\t']) {
      assert.equal(bearerToken(header), undefined, JSON.stringify(header));
    }
  });

  test('a token with characters outside token68 is refused', () => {
    for (const header of ['Bearer a"b', 'Bearer a!b', 'Bearer a=b', 'Bearer ключ']) {
      assert.equal(bearerToken(header), undefined, header);
    }
  });

  test('a token longer than 512 characters is refused', () => {
    assert.equal(bearerToken(`Bearer ${'a'.repeat(512)}`), 'a'.repeat(512));
    assert.equal(bearerToken(`Bearer ${'a'.repeat(513)}`), undefined);
  });
});

describe('authenticate', () => {
  let storage: TestStorage;
  let store: Store;

  before(async () => {
    storage = await createTestStorage({ forceEmbedded: true, contents: 'migrated' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
    await migrateToLatest(store.db);
  });
  after(async () => {
    await store.close();
    await storage.cleanup();
  });

  const refusal = async (header: string | undefined) => {
    const outcome = await authenticate(store.db, header);
    assert.equal(outcome.ok, false);
    return outcome.ok ? undefined : outcome.error;
  };

  test('a valid key opens its account', async () => {
    const issued = await issueKey(store.db, { credits: 7, reason: 'test' });
    const outcome = await authenticate(store.db, `Bearer ${issued.key}`);
    assert.ok(outcome.ok);
    assert.deepEqual([outcome.value.id, outcome.value.balance], [issued.accountId, 7]);
  });

  test('a valid key with a lower-case scheme opens its account', async () => {
    const issued = await issueKey(store.db, { credits: 1, reason: 'test' });
    assert.equal((await authenticate(store.db, `bearer ${issued.key}`)).ok, true);
  });

  test('no header is credentials-missing', async () => {
    for (const header of [undefined, '']) {
      const error = await refusal(header);
      assert.deepEqual([error?.code, error?.status, error?.detail], ['credentials-missing', 401, KEY_REQUIRED]);
    }
  });

  test('a header that is not one Bearer token is credentials-malformed', async () => {
    const issued = await issueKey(store.db, { credits: 1, reason: 'test' });
    for (const header of ['Basic YTpi', 'Bearer', `Bearer  ${issued.key}`, `Bearer ${issued.key} x`]) {
      const error = await refusal(header);
      assert.deepEqual([error?.code, error?.status, error?.detail], ['credentials-malformed', 401, KEY_NOT_VALID]);
    }
  });

  test('an unknown or revoked key is credentials-invalid', async () => {
    const revoked = await issueKey(store.db, { credits: 1, reason: 'test' });
    await revokeKey(store.db, revoked.id);
    for (const header of ['Bearer not-a-key', `Bearer sigsk_${'A'.repeat(43)}`, `Bearer ${revoked.key}`]) {
      const error = await refusal(header);
      assert.deepEqual([error?.code, error?.status], ['credentials-invalid', 401]);
    }
  });

  test('the key never appears in the error', async () => {
    const revoked = await issueKey(store.db, { credits: 1, reason: 'test' });
    await revokeKey(store.db, revoked.id);
    const error = await refusal(`Bearer ${revoked.key}`);
    assert.ok(!JSON.stringify({ ...error, message: error?.message }).includes(revoked.key));
  });

  test('a key from elsewhere (SIGNAL_API_KEY) takes the same key step, with its own missing detail', async () => {
    const issued = await issueKey(store.db, { credits: 2, reason: 'test' });
    assert.equal((await authenticateKey(store.db, issued.key)).ok, true);
    const missing = await authenticateKey(store.db, undefined, 'signal-mcp-key-missing');
    assert.ok(!missing.ok);
    assert.deepEqual(
      [missing.error.code, missing.error.detail],
      ['credentials-missing', 'A credit-pack key is required: set SIGNAL_API_KEY for signal-mcp.'],
    );
  });
});
