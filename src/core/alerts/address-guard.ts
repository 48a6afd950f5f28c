import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard for webhook URLs. A webhook makes this server send requests wherever a
 * subscriber says, so a URL whose host is, or resolves to, a private, loopback, link-local or otherwise
 * non-public address is refused (unless the operator allows them: ALERTS_ALLOW_PRIVATE_WEBHOOKS). The check runs at
 * creation and again at every delivery, inside the connection's own DNS look-up, so the address connected to is
 * the address checked (a name that resolved to a public address at creation and to 127.0.0.1 later is refused).
 */

/** A DNS resolver: every address of a host name. Injected at the boundary (tests answer names themselves). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses through a translator
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (::ffff:127.0.0.1), if it is one. */
function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (m) return m[1];
  const hex = /^(?:0{0,4}:){0,5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True for an address a webhook may not reach (unless private addresses are allowed). */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare.toLowerCase());
    if (v4 && isIP(v4) === 4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return true; // not an address at all: refuse
}

export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      host === address
        ? `${address} is a private, loopback, link-local or reserved address`
        : `${host} resolves to ${address}, a private, loopback, link-local or reserved address`,
    );
    this.name = 'RefusedAddressError';
  }
}

export interface AddressPolicy {
  allowPrivate: boolean;
  resolve: Resolver;
}

/**
 * The addresses of a host that a webhook may connect to: all of them, or a RefusedAddressError naming the first
 * that is not public (one bad address is enough to refuse: a connection could pick it).
 */
export async function checkedAddresses(
  host: string,
  policy: AddressPolicy,
): Promise<{ address: string; family: number }[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  const addresses = literal ? [{ address: bare, family: literal }] : await policy.resolve(bare);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isNonPublicAddress(a.address));
    if (bad) throw new RefusedAddressError(bare, bad.address);
  }
  return addresses;
}
