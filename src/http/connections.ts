import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../domain/errors.js';
import { problemResponse } from './problem.js';

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

/**
 * Closes every connection on which nothing has been sent or received for `idleMs` (a client that went silent, or
 * stopped reading a long answer). One timer for the server sweeps its open connections and compares the bytes each
 * has moved with the previous sweep, instead of node's timer per connection (`server.timeout`), which is re-armed on
 * every request and refreshed on every read and write, a cost paid by every request. The sweep runs at a tenth of the
 * deadline (between 50 ms and 1 s), so a connection is closed between `idleMs` and `idleMs` plus two sweeps after it
 * last moved a byte.
 */
export function closeSilentConnections(server: Server, idleMs: number): void {
  const sweepMs = Math.max(50, Math.min(1_000, Math.floor(idleMs / 10)));
  const open = new Map<Socket, { moved: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    open.set(socket, { moved: 0, since: Date.now() });
    socket.once('close', () => open.delete(socket));
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, seen] of open) {
      const moved = socket.bytesRead + socket.bytesWritten;
      if (moved !== seen.moved) {
        seen.moved = moved;
        seen.since = now;
      } else if (now - seen.since >= idleMs) {
        open.delete(socket);
        socket.destroy();
      }
    }
  }, sweepMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

const TOO_MANY =
  'HTTP/1.1 429 Too Many Requests\r\n' +
  'content-type: application/problem+json\r\n' +
  'retry-after: 1\r\n' +
  'connection: close\r\n';
const TOO_MANY_BODY = JSON.stringify(problemResponse(new ServiceError('too-many-connections'), undefined).body);
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
