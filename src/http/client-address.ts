import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config.js';

/**
 * Which peers we trust to tell us about the client (X-Forwarded-For) and to name the request (X-Request-Id).
 * Returns proxy-addr's trust function: `(address, hop)` is true when the peer at that hop is trusted, hop 0 being
 * the socket's peer. Fastify receives the same function, so the client address and the request id agree on trust.
 */
export function compileTrust(trust: TrustProxy): (address: string, hop: number) => boolean {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyaddr.compile(trust);
}
