import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueKey } from '../../src/payments/keys.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Bodies of many shapes, read field by field.
type Json = Record<string, any>;

/** What a paid surface answered when it refused: the status and the extensions that say what to do next. */
interface Refusal {
  status: number;
  purchaseUrl?: string;
  x402Url?: string;
  balance?: number;
}

/** A refusal read from a problem body or an error's data. */
const refusal = (e: Json): Refusal => ({
  status: e.status,
  ...(e.purchaseUrl !== undefined ? { purchaseUrl: e.purchaseUrl } : {}),
  ...(e.x402Url !== undefined ? { x402Url: e.x402Url } : {}),
  ...(e.balance !== undefined ? { balance: e.balance } : {}),
});

/**
 * The paid-call policy in one table: the paid Deep Signal refused without a key, without credit, or with a bad
 * Idempotency-Key, on every surface that sells it with a credit key (REST, the tool over /api/agent/call and MCP,
 * A2A's `deep: true`): the same status, code and extensions everywhere.
 */
describe('paid calls across surfaces', () => {
  let svc: TestApp;
  let name: string;
  let emptyKey: string;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    svc.get(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Every surface, called with these headers: the error it answered (a problem body, or the error's data). */
  const surfaces: Record<string, (headers: Record<string, string>) => Promise<Json>> = {
    'POST /api/agent/deep-signal': async (headers) =>
      (await (await post('/api/agent/deep-signal', { name }, headers)).json()) as Json,
    'tool get_deep_signal': async (headers) =>
      (await (await post('/api/agent/call', { name: 'get_deep_signal', arguments: { name } }, headers)).json()) as Json,
    'MCP get_deep_signal': async (headers) => {
      const res = await post(
        '/api/mcp/rpc',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_deep_signal', arguments: { name } } },
        { accept: 'application/json, text/event-stream', ...headers },
      );
      const body = (await res.json()) as Json;
      // A bad request (an Idempotency-Key that breaks the rule) is refused over HTTP before any message is read.
      if (res.status !== 200) return body;
      const result = body.result as Json;
      assert.equal(result.isError, true, JSON.stringify(result));
      return result._meta.error as Json;
    },
    'A2A startup-signal (deep)': async (headers) => {
      const res = await post(
        '/api/a2a',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: crypto.randomUUID(),
              role: 'user',
              parts: [{ kind: 'data', data: { skill: 'startup-signal', arguments: { name, deep: true } } }],
            },
          },
        },
        headers,
      );
      const task = ((await res.json()) as Json).result as Json;
      assert.equal(task.status.state, 'failed', JSON.stringify(task.status));
      return task.metadata.error as Json;
    },
  };

  const cases: { behaviour: string; headers: () => Record<string, string>; want: () => Refusal }[] = [
    {
      behaviour: 'without a key: 401, with where to buy credits and where to pay per call',
      headers: () => ({}),
      want: () => ({
        status: 401,
        purchaseUrl: `${svc.url}/agents/credits`,
        x402Url: `${svc.url}/api/agent/deep-signal/x402`,
      }),
    },
    {
      behaviour: 'with no credit left: 402, with the balance, where to buy credits and where to pay per call',
      headers: () => ({ authorization: `Bearer ${emptyKey}` }),
      want: () => ({
        status: 402,
        purchaseUrl: `${svc.url}/agents/credits`,
        x402Url: `${svc.url}/api/agent/deep-signal/x402`,
        balance: 0,
      }),
    },
  ];

  before(async () => {
    svc = await startTestApp();
    name = ((await (await svc.get('/api/signals.json')).json()) as Json).trending[0].name;
    emptyKey = (await issueKey(svc.service.store.db, { credits: 0, reason: 'test' })).key;
  });
  after(async () => {
    await svc?.close();
  });

  for (const row of cases) {
    test(`a paid call ${row.behaviour}, on every surface`, async () => {
      const got: Record<string, Refusal> = {};
      for (const [surface, see] of Object.entries(surfaces)) got[surface] = refusal(await see(row.headers()));
      assert.deepEqual(got, Object.fromEntries(Object.keys(surfaces).map((s) => [s, row.want()])));
    });
  }

  test('a bad Idempotency-Key is a 400 on every surface, with one message, before anything is charged', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 3, reason: 'test' });
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': 'two words' };
    const got: Record<string, unknown> = {};
    for (const [surface, see] of Object.entries(surfaces)) {
      const e = await see(headers);
      got[surface] = { status: e.status, detail: e.detail };
    }
    const rule = 'Idempotency-Key must be 1 to 255 visible ASCII characters.';
    assert.deepEqual(got, {
      // The REST route's header is checked by its schema, whose message names the header as a validation error does.
      'POST /api/agent/deep-signal': {
        status: 400,
        detail: 'headers.idempotency-key: must be 1 to 255 visible ASCII characters',
      },
      'tool get_deep_signal': { status: 400, detail: rule },
      'MCP get_deep_signal': { status: 400, detail: rule },
      'A2A startup-signal (deep)': { status: 400, detail: rule },
    });
    const credits = (await (
      await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } })
    ).json()) as Json;
    assert.equal(credits.balance, 3);
  });
});
