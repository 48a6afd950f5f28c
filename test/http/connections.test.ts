import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.js';

/** A raw connection to the service: what it received, and when it was closed (ms after opening). */
function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const started = Date.now();
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => Date.now() - started);
  return {
    socket,
    closed,
    received: () => received,
    ready: once(socket, 'connect'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes one byte at a time every `everyMs` until the socket closes or `limit` bytes are sent. */
async function trickle(socket: net.Socket, text: string, everyMs: number): Promise<void> {
  for (const ch of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(ch);
    await sleep(everyMs);
  }
}

describe('connection deadlines', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_REQUEST_TIMEOUT_MS: '1200' });
  });
  after(() => svc.close());

  test('a body sent one byte at a time is cut at the request deadline with 408', async () => {
    const c = connect(svc.url);
    await c.ready;
    c.socket.write(
      'POST /api/nlweb HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n',
    );
    void trickle(c.socket, ' '.repeat(5000), 100);
    const ms = await c.closed;
    assert.ok(ms < 4_000, `closed after ${ms} ms`);
    assert.match(c.received(), /^HTTP\/1\.1 408/);
  });

  test('headers sent one byte at a time are cut at the headers deadline', async () => {
    const c = connect(svc.url);
    await c.ready;
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    void trickle(c.socket, `x-slow: ${'a'.repeat(1000)}`, 50);
    const ms = await c.closed;
    assert.ok(ms < 3_000, `closed after ${ms} ms`);
  });

  test('a connection that sends nothing is closed', async () => {
    const c = connect(svc.url);
    await c.ready;
    const ms = await c.closed;
    assert.ok(ms < 3_000, `closed after ${ms} ms`);
  });

  test('a prompt client is unaffected by the deadlines', async () => {
    const res = await svc.get('/healthz');
    assert.equal(res.status, 200);
  });
});

describe('idle connections', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ HTTP_IDLE_TIMEOUT_MS: '500' });
  });
  after(() => svc.close());

  test('a kept-alive connection silent after its answer is closed at the idle deadline, not before', async () => {
    const c = connect(svc.url);
    await c.ready;
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!c.received().includes('\r\n\r\n')) await sleep(5);
    const answered = Date.now();
    await c.closed;
    const silentFor = Date.now() - answered;
    assert.match(c.received(), /^HTTP\/1\.1 200/);
    assert.ok(silentFor >= 450 && silentFor < 2_000, `closed ${silentFor} ms after the answer`);
  });

  test('a connection that keeps asking is not closed at the idle deadline', async () => {
    const c = connect(svc.url);
    await c.ready;
    for (let i = 0; i < 8; i++) {
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await sleep(150);
    }
    assert.equal(c.socket.destroyed, false);
    // The last answer may still be on its way on a loaded machine: wait for it, not for a fixed time.
    const answers = () => c.received().match(/HTTP\/1\.1 200/g)?.length ?? 0;
    for (let waited = 0; answers() < 8 && waited < 5_000; waited += 20) await sleep(20);
    assert.equal(answers(), 8);
    c.socket.destroy();
  });

  test('a client that stops reading a long answer is closed at the idle deadline', async () => {
    const c = connect(svc.url);
    await c.ready;
    c.socket.pause();
    // More answers than the two ends' socket buffers hold, so the server's writes stall.
    c.socket.write('GET /api/signals.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(200));
    await sleep(2_500);
    c.socket.resume();
    await c.closed;
    const answers = c.received().match(/HTTP\/1\.1 200/g)?.length ?? 0;
    assert.ok(answers > 0 && answers < 200, `${answers} answers before the connection was closed`);
  });
});

describe('connections per address', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3' });
  });
  after(() => svc.close());

  const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';

  test('a connection over the cap is answered 429 and closed; one closed makes room for another', async () => {
    const held = [connect(svc.url), connect(svc.url), connect(svc.url)];
    for (const c of held) {
      await c.ready;
      c.socket.write(request);
    }
    // Each held connection has been accepted and answered (so counted) before the next one is tried.
    for (const c of held) while (!c.received().includes('\r\n\r\n')) await sleep(10);
    for (const c of held) assert.match(c.received(), /^HTTP\/1\.1 200/);

    const over = connect(svc.url);
    await over.ready;
    over.socket.write(request);
    await over.closed;
    assert.match(over.received(), /^HTTP\/1\.1 429/);
    assert.match(over.received(), /"status":429/);

    held[0]!.socket.destroy();
    await held[0]!.closed;
    await sleep(50);
    const again = connect(svc.url);
    await again.ready;
    again.socket.write(request);
    while (!again.received().includes('\r\n\r\n') && !again.socket.destroyed) await sleep(10);
    assert.match(again.received(), /^HTTP\/1\.1 200/);
    for (const c of [...held, again]) c.socket.destroy();
  });
});
