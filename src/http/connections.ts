import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The connection limits of the HTTP server: how long a client may take to send a request (headers, then the whole
 * request) and to stay silent, and how many connections one address may hold open. A client sending one byte a
 * second, or opening connections and sending nothing, is cut off at these deadlines instead of holding a file
 * descriptor for as long as it likes.
 */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnectionsPerAddress: number;
}

/**
 * Node's http server options for the timeouts: it checks the headers and request deadlines of open connections
 * every `connectionsCheckingInterval` (30 s by default, which would let a slow client outlast a short deadline by as
 * much), so the check runs at a tenth of the headers deadline, at least every second.
 */
export function httpServerOptions(limits: ConnectionLimits) {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 10))),
  };
}

const TOO_MANY =
  'HTTP/1.1 429 Too Many Requests\r\n' +
  'content-type: application/problem+json\r\n' +
  'retry-after: 1\r\n' +
  'connection: close\r\n';
const TOO_MANY_BODY = JSON.stringify({
  type: 'about:blank',
  title: 'Too Many Requests',
  status: 429,
  detail: 'Too many open connections from this address; close some, or reuse them (keep-alive).',
});
const TOO_MANY_RESPONSE = `${TOO_MANY}content-length: ${Buffer.byteLength(TOO_MANY_BODY)}\r\n\r\n${TOO_MANY_BODY}`;

/**
 * Caps the open connections per peer address. A connection over the cap is answered with a 429 problem and closed
 * before any of its bytes are read. `exempt` peers (the trusted proxies, which carry many clients) are not counted.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  exempt: (address: string) => boolean,
  onRefused: () => void = () => {},
): void {
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      onRefused();
      // Answered and closed at once, whatever the client sends meanwhile.
      socket.on('error', () => {});
      socket.write(TOO_MANY_RESPONSE, () => socket.destroy());
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
