import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { codedEtag, isTextType, negotiate, withAcceptEncoding } from '../../src/http/encoding.js';

describe('negotiate (Accept-Encoding)', () => {
  test('sends identity when the header is absent or empty', () => {
    assert.equal(negotiate(undefined), 'identity');
    assert.equal(negotiate(''), 'identity');
  });

  test('prefers Brotli to gzip when both are accepted alike', () => {
    assert.equal(negotiate('gzip, deflate, br, zstd'), 'br');
    assert.equal(negotiate('br;q=0.8, gzip;q=0.8'), 'br');
  });

  test('follows the q-values: the higher one wins', () => {
    assert.equal(negotiate('br;q=0.5, gzip;q=0.9'), 'gzip');
    assert.equal(negotiate('br;q=1.0, gzip;q=0.999'), 'br');
  });

  test('a coding with q=0 is refused', () => {
    assert.equal(negotiate('br;q=0, gzip'), 'gzip');
    assert.equal(negotiate('br;q=0, gzip;q=0'), 'identity');
  });

  test('x-gzip is gzip', () => {
    assert.equal(negotiate('x-gzip'), 'gzip');
  });

  test('* accepts the codings not named, with its q-value', () => {
    assert.equal(negotiate('*'), 'br');
    assert.equal(negotiate('br;q=0, *'), 'gzip');
    assert.equal(negotiate('*;q=0'), 'identity');
    assert.equal(negotiate('gzip;q=0.5, *;q=0.1'), 'gzip');
  });

  test('identity wins only when it is named with a higher q-value', () => {
    assert.equal(negotiate('identity'), 'identity');
    assert.equal(negotiate('identity, gzip'), 'gzip');
    assert.equal(negotiate('identity;q=1, gzip;q=0.5'), 'identity');
    assert.equal(negotiate('identity;q=0, br'), 'br');
  });

  test('unknown codings are ignored', () => {
    assert.equal(negotiate('zstd, deflate'), 'identity');
    assert.equal(negotiate('compress, gzip'), 'gzip');
  });

  test('names and q are case-insensitive; a member with a malformed q-value is ignored', () => {
    assert.equal(negotiate('BR;Q=0.5, GZIP;q=0.4'), 'br');
    assert.equal(negotiate('br;q=2, gzip'), 'gzip');
    assert.equal(negotiate('br;q=abc'), 'identity');
    assert.equal(negotiate('br;q=0.1234, gzip;q=0.1'), 'gzip');
  });

  test('stray commas and spaces do not matter', () => {
    assert.equal(negotiate(' , gzip ;  q=0.3 ,, '), 'gzip');
  });

  test('for a body offered in gzip only, Brotli is never chosen: gzip when accepted, identity otherwise', () => {
    assert.equal(negotiate('gzip, deflate, br', 'gzip'), 'gzip');
    assert.equal(negotiate('br;q=1, gzip;q=0.1', 'gzip'), 'gzip');
    assert.equal(negotiate('br', 'gzip'), 'identity');
    assert.equal(negotiate('*', 'gzip'), 'gzip');
    assert.equal(negotiate('identity;q=0.5, gzip;q=0.4', 'gzip'), 'identity');
  });

  test('the same header is answered alike for a body offered in every coding after one offered in gzip only', () => {
    assert.equal(negotiate('br;q=0.9, gzip;q=0.2', 'gzip'), 'gzip');
    assert.equal(negotiate('br;q=0.9, gzip;q=0.2'), 'br');
  });
});

describe('coded representations', () => {
  test('a coded ETag is the identity tag with the coding appended, weak tags staying weak', () => {
    assert.equal(codedEtag('"abc"', 'br'), '"abc-br"');
    assert.equal(codedEtag('"abc"', 'gzip'), '"abc-gzip"');
    assert.equal(codedEtag('W/"abc"', 'br'), 'W/"abc-br"');
  });

  test('Vary gains Accept-Encoding once', () => {
    assert.equal(withAcceptEncoding(undefined), 'accept-encoding');
    assert.equal(withAcceptEncoding('Accept'), 'Accept, accept-encoding');
    assert.equal(withAcceptEncoding('accept, Accept-Encoding'), 'accept, Accept-Encoding');
    assert.equal(withAcceptEncoding('*'), '*');
  });

  test('text types are compressible; binary types and event streams are not', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/problem+json',
      'application/ld+json',
      'application/x-ndjson',
      'application/rss+xml',
      'text/html; charset=utf-8',
      'text/csv',
      'image/svg+xml',
    ])
      assert.ok(isTextType(type), type);
    for (const type of ['image/png', 'font/woff2', 'text/event-stream', 'application/octet-stream', undefined])
      assert.ok(!isTextType(type), String(type));
  });
});
