import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { bitCount, DocSet } from '../../../src/core/search/doc-set.js';

describe('document set', () => {
  test('holds the documents added and no others, across word boundaries', () => {
    const set = new DocSet(100);
    for (const doc of [0, 31, 32, 63, 64, 99]) set.add(doc);
    assert.deepEqual(
      Array.from({ length: 100 }, (_, doc) => doc).filter((doc) => set.has(doc)),
      [0, 31, 32, 63, 64, 99],
    );
    assert.equal(set.count, 6);
  });

  test('where takes the documents a predicate accepts', () => {
    const even = DocSet.where(70, (doc) => doc % 2 === 0);
    assert.equal(even.count, 35);
    assert.ok(even.has(68));
    assert.ok(!even.has(69));
  });

  test('bitCount counts the set bits of any 32-bit word', () => {
    const naive = (word: number) => [...(word >>> 0).toString(2)].filter((bit) => bit === '1').length;
    assert.equal(bitCount(0xffffffff), 32);
    assert.equal(bitCount(0x80000000 | 0), 1);
    fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), (word) => bitCount(word) === naive(word)));
  });
});
