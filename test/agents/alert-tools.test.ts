import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { issueKey } from '../../src/payments/keys.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

type Json = Record<string, any>;
/** Set, so the tests run the same on PostgreSQL (where alerts are off without it). */
const ALERTS_SECRET = 'test-alerts-secret-0123456789-abcdefghijkl';

describe('the alert subscription tools over MCP', () => {
  let app: TestApp;
  let client: Client;
  let key: string;

  before(async () => {
    app = await startTestApp({ ALERTS_SECRET }, { listen: true });
    key = (await issueKey(app.service.store.db, { credits: 2, reason: 'test' })).key;
    client = new Client({ name: 'alerts-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp/rpc`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
  });
  after(async () => {
    await client.close();
    await app.close();
  });

  const call = async (name: string, args: Json = {}) => (await client.callTool({ name, arguments: args })) as Json;

  test('one tool per operation; reads are read-only and idempotent, only delete is destructive', async () => {
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(
      tools
        .filter((t) => t.name.includes('alert'))
        .map((t) => [
          t.name,
          [t.annotations?.readOnlyHint, t.annotations?.idempotentHint, t.annotations?.destructiveHint],
        ]),
    );
    assert.deepEqual(hints, {
      list_alert_subscriptions: [true, true, false],
      get_alert_subscription: [true, true, false],
      list_alert_deliveries: [true, true, false],
      create_alert_subscription: [false, false, false],
      delete_alert_subscription: [false, true, true],
    });
  });

  test("creates, lists, reads the log of and deletes a subscription with the caller's key, spending no credit", async () => {
    const created = await call('create_alert_subscription', {
      label: 'agent',
      watch: { sectors: ['robotics'], trendingTop20: true },
    });
    assert.equal(created.isError, undefined);
    const id = created.structuredContent.subscription.id as string;
    assert.match(id, /^sub_/);
    assert.equal(created.structuredContent.webhookSecret, null);
    const listed = await call('list_alert_subscriptions');
    assert.deepEqual(
      listed.structuredContent.subscriptions.map((s: Json) => s.id),
      [id],
    );
    assert.equal((await call('get_alert_subscription', { id })).structuredContent.subscription.label, 'agent');
    assert.deepEqual((await call('list_alert_deliveries', { id })).structuredContent.deliveries, []);
    assert.equal((await call('delete_alert_subscription', { id })).structuredContent.deleted, id);
    const credits = (await (
      await app.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } })
    ).json()) as Json;
    assert.equal(credits.balance, 2);
  });

  test('a refused webhook URL is an isError result with the reason', async () => {
    const result = await call('create_alert_subscription', {
      watch: { trendingTop20: true },
      webhookUrl: 'http://169.254.169.254/',
    });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /private, loopback, link-local or reserved/);
  });

  test('without a key the tool answers isError, as the paid tool does', async () => {
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await anonymous.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp/rpc`)));
    try {
      const result = (await anonymous.callTool({
        name: 'list_alert_subscriptions',
        arguments: {},
      })) as Json;
      assert.equal(result.isError, true);
    } finally {
      await anonymous.close();
    }
  });
});
