import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkedAddresses,
  isNonPublicAddress,
  RefusedAddressError,
  type Resolver,
} from '../../../src/core/alerts/address-guard.js';

/** A resolver answering from a table, as a DNS server would (injected at the boundary). */
const table =
  (entries: Record<string, string[]>): Resolver =>
  async (host) => {
    const addresses = entries[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('webhook address guard', () => {
  test('refuses private, loopback, link-local, CGNAT, multicast and reserved IPv4 addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      assert.equal(isNonPublicAddress(address), true, address);
    }
  });

  test('refuses loopback, unique-local, link-local and IPv4-mapped private IPv6 addresses', () => {
    for (const address of [
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.1.2.3',
      '64:ff9b::a9fe:a9fe',
    ]) {
      assert.equal(isNonPublicAddress(address), true, address);
    }
  });

  test('lets public addresses through', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isNonPublicAddress(address), false, address);
    }
  });

  test('a DNS name resolving to loopback is refused, naming the address', async () => {
    const policy = { allowPrivate: false, resolve: table({ 'hooks.attacker.test': ['127.0.0.1'] }) };
    await assert.rejects(checkedAddresses('hooks.attacker.test', policy), (err) => {
      assert.ok(err instanceof RefusedAddressError);
      assert.match(err.message, /hooks\.attacker\.test resolves to 127\.0\.0\.1/);
      return true;
    });
  });

  test('one private address among public ones is enough to refuse a name', async () => {
    const policy = { allowPrivate: false, resolve: table({ 'mixed.test': ['93.184.215.14', '10.0.0.7'] }) };
    await assert.rejects(checkedAddresses('mixed.test', policy), RefusedAddressError);
  });

  test('a literal address in brackets is checked without a look-up', async () => {
    const policy = { allowPrivate: false, resolve: table({}) };
    await assert.rejects(checkedAddresses('[::1]', policy), RefusedAddressError);
  });

  test('the operator may allow private addresses', async () => {
    const policy = { allowPrivate: true, resolve: table({ 'intranet.test': ['192.168.0.10'] }) };
    assert.deepEqual(await checkedAddresses('intranet.test', policy), [{ address: '192.168.0.10', family: 4 }]);
  });
});
