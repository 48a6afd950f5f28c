import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import { woffToSfnt } from '../../src/web/woff.js';

const require = createRequire(import.meta.url);
const fontDir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');

describe('WOFF to OpenType', () => {
  const woff = fs.readFileSync(path.join(fontDir, 'inter-latin-400-normal.woff'));
  const sfnt = woffToSfnt(woff);

  test('the font keeps its flavour, its table count and the size the WOFF header states', () => {
    assert.equal(sfnt.readUInt32BE(0), woff.readUInt32BE(4));
    assert.equal(sfnt.readUInt16BE(4), woff.readUInt16BE(12));
    assert.equal(sfnt.length, woff.readUInt32BE(16));
  });

  test('every table lies inside the file, 4-byte aligned, and matches its checksum', () => {
    const n = sfnt.readUInt16BE(4);
    for (let i = 0; i < n; i++) {
      const at = 12 + i * 16;
      const tag = sfnt.toString('latin1', at, at + 4);
      const offset = sfnt.readUInt32BE(at + 8);
      const length = sfnt.readUInt32BE(at + 12);
      assert.equal(offset % 4, 0, tag);
      assert.ok(offset + length <= sfnt.length, tag);
      if (tag === 'head') continue; // its checksum skips checkSumAdjustment
      let sum = 0;
      for (let p = offset; p < offset + length; p += 4) {
        const word = Buffer.alloc(4);
        sfnt.copy(word, 0, p, Math.min(p + 4, offset + length));
        sum = (sum + word.readUInt32BE(0)) >>> 0;
      }
      assert.equal(sum, sfnt.readUInt32BE(at + 4), tag);
    }
  });

  test('a file that is not WOFF 1.0 is refused', () => {
    assert.throws(() => woffToSfnt(Buffer.from('wOF2 is not supported here, nor is anything else')), /not a WOFF 1.0/);
  });
});
