import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DocSet } from '../../../src/core/search/doc-set.js';

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
});
