import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { siteUrls } from '../../src/domain/urls.js';
import { pageContext } from '../../src/web/context.js';
import { cardText, sectorCard, siteCard, startupCard } from '../../src/web/share-image.js';
import { BASE, demoSnapshot } from '../core/fixtures.js';

const snapshot = demoSnapshot();
const ctx = pageContext(snapshot, siteUrls(BASE));

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('share images', () => {
  test('a startup, a sector and the site each get a 1200×630 PNG card', async () => {
    for (const png of [
      await startupCard(ctx, snapshot.trending[0]!),
      await sectorCard(ctx, 'robotics'),
      await siteCard(ctx),
    ])
      assert.deepEqual(pngSize(png), { width: 1200, height: 630 });
  });

  test('a name with markup, quotes and control characters is drawn as text, not parsed', async () => {
    const s = snapshot.trending[0]!;
    const hostile = { ...s, startup: { ...s.startup, name: '<svg onload="x">&amp; "Co"\u0001</text>' } };
    assert.deepEqual(pngSize(await startupCard(ctx, hostile)), { width: 1200, height: 630 });
  });

  test('text is cut with an ellipsis and loses the characters XML forbids', () => {
    assert.equal(cardText('abcdef', 4), 'abc…');
    assert.equal(cardText('a\u0000b\u001fc', 10), 'abc');
    assert.equal(cardText('short', 10), 'short');
  });

  test('the same startup gives the same bytes (a card is rendered once per period and served with an ETag)', async () => {
    const s = snapshot.trending[1]!;
    assert.ok((await startupCard(ctx, s)).equals(await startupCard(ctx, s)));
  });
});
