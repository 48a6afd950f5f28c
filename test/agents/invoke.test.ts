import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { remoteInvoker } from '../../src/agents/invoke.js';
import { ServiceError } from '../../src/domain/errors.js';

/**
 * A deployment's /api/agent/call faked at the network boundary: it records each request's headers and body, and
 * cuts the connection of the first `drop` requests without an answer (a crashed instance, a reset).
 */
class FakeDeployment {
  requests: { headers: IncomingMessage['headers']; body: string }[] = [];
  drop = 0;
  answer: { status: number; body: unknown } = { status: 200, body: { found: false, charged: 0 } };
  private server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      this.requests.push({ headers: req.headers, body });
      if (this.drop > 0) {
        this.drop--;
        req.socket.destroy();
        return;
      }
      res.writeHead(this.answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(this.answer.body));
    });
  });
  url = '';

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
  }
}

describe('tools answered by a remote deployment (signal-mcp with SIGNAL_BASE_URL)', () => {
  const remote = new FakeDeployment();
  before(() => remote.start());
  after(() => remote.close());
  const reset = () => {
    remote.requests = [];
    remote.drop = 0;
    remote.answer = { status: 200, body: { found: false, charged: 0 } };
  };

  test('a paid call carries an Idempotency-Key even when the caller gave none', async () => {
    reset();
    await remoteInvoker(remote.url, 'sigsk_test')('get_deep_signal', { name: 'Acme' });
    assert.match(String(remote.requests[0]!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
  });

  test("a paid call carries the caller's Idempotency-Key", async () => {
    reset();
    await remoteInvoker(remote.url, 'sigsk_test')('get_deep_signal', { name: 'Acme' }, { idempotencyKey: 'k-1' });
    assert.equal(remote.requests[0]!.headers['idempotency-key'], 'k-1');
  });

  test('a paid call whose connection is cut is sent again with the same Idempotency-Key', async () => {
    reset();
    remote.drop = 2;
    const result = await remoteInvoker(remote.url, 'sigsk_test')('get_deep_signal', { name: 'Acme' });
    assert.deepEqual(result, { found: false, charged: 0 });
    assert.equal(remote.requests.length, 3);
    const keys = new Set(remote.requests.map((r) => r.headers['idempotency-key']));
    assert.equal(keys.size, 1);
  });

  test('a free call is sent once, without an Idempotency-Key', async () => {
    reset();
    remote.drop = 1;
    await assert.rejects(
      remoteInvoker(remote.url, undefined)('get_methodology', {}),
      (err: unknown) => err instanceof ServiceError && err.status === 502,
    );
    assert.equal(remote.requests.length, 1);
    assert.equal(remote.requests[0]!.headers['idempotency-key'], undefined);
  });

  test('a problem answer keeps its status, detail and extensions (the purchase URL, the balance)', async () => {
    reset();
    remote.answer = {
      status: 402,
      body: {
        type: 'about:blank',
        title: 'Payment Required',
        status: 402,
        detail: 'No credit left.',
        balance: 0,
        purchaseUrl: 'https://s.test/agents/credits',
      },
    };
    await assert.rejects(
      remoteInvoker(remote.url, 'sigsk_test')('get_deep_signal', { name: 'Acme' }),
      (err: unknown) =>
        err instanceof ServiceError &&
        err.status === 402 &&
        err.detail === 'No credit left.' &&
        err.extensions.balance === 0 &&
        err.extensions.purchaseUrl === 'https://s.test/agents/credits',
    );
  });
});
