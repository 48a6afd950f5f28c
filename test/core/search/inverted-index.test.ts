import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { DocSet } from '../../../src/core/search/doc-set.js';
import { InvertedIndex } from '../../../src/core/search/inverted-index.js';

const docs = [
  ['Robotics fleet orchestration', 'robots fleets'],
  ['Data streaming engine', 'streams'],
  ['Robot arms', ''],
  ['Payroll software for robotics teams', ''],
  ['Common word', ''],
];
const index = new InvertedIndex(docs, { fields: [{ boost: 3 }, { boost: 1 }] });

describe('inverted index', () => {
  test('total counts every document matching a term and hits are best first', () => {
    const result = index.search('robotics', 10);
    assert.deepEqual(result.hits.map((h) => h.doc).sort(), [0, 2, 3]);
    assert.equal(result.total, 3);
    const scores = result.hits.map((h) => h.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  });

  test('a shorter field with the term outranks a longer one (length normalisation)', () => {
    const order = index.search('robot', 10).hits.map((h) => h.doc);
    assert.ok(order.indexOf(2) < order.indexOf(3), order.join());
  });

  test('limit cuts the hits but not the total', () => {
    const result = index.search('robotics', 1);
    assert.equal(result.hits.length, 1);
    assert.equal(result.total, 3);
  });

  test('within filters hits and total', () => {
    const result = index.search(
      'robotics',
      10,
      DocSet.where(docs.length, (doc) => doc !== 0),
    );
    assert.deepEqual(result.hits.map((h) => h.doc).sort(), [2, 3]);
    assert.equal(result.total, 2);
  });

  test('a prefix of 4+ letters matches longer words, a typo matches its word', () => {
    assert.deepEqual(
      index.search('orch', 10).hits.map((h) => h.doc),
      [0],
    );
    assert.deepEqual(
      index.search('payrol', 10).hits.map((h) => h.doc),
      [3],
    );
  });

  test('a typo in the first two letters finds its word as well as one later in the word', () => {
    for (const typo of ['xayroll', 'pyroll', 'payrolx', 'ppayroll']) {
      assert.deepEqual(
        index.search(typo, 10).hits.map((h) => h.doc),
        [3],
        typo,
      );
    }
  });

  test('stop words and unknown words find nothing', () => {
    assert.deepEqual(index.search('the of and', 10), { total: 0, hits: [], terms: [] });
    assert.equal(index.search('zzzzzz', 10).total, 0);
  });

  test('commonShare drops a term in most documents when the query has a rarer one', () => {
    const common = new InvertedIndex(
      [['alpha common'], ['beta common'], ['gamma common'], ['delta common'], ['common']],
      { fields: [{ boost: 1 }] },
    );
    assert.equal(common.search('alpha common', 10).total, 5);
    assert.equal(common.search('alpha common', 10, undefined, 0.5).total, 1);
    assert.equal(common.search('common', 10, undefined, 0.5).total, 5);
  });

  test('scores are reset between queries', () => {
    const first = index.search('robotics', 10).hits.map((h) => h.score);
    const second = index.search('robotics', 10).hits.map((h) => h.score);
    assert.deepEqual(first, second);
  });

  test('built in steps, it yields between chunks of documents and answers exactly as the one-go build', () => {
    const many = Array.from({ length: 2_500 }, (_, i) => [
      `Startup ${i} robotics ${i % 7 === 0 ? 'fleet' : 'arm'}`,
      `k${i % 13}`,
    ]);
    const options = { fields: [{ boost: 3 }, { boost: 1 }] };
    const steps = InvertedIndex.build(many, options);
    let yields = 0;
    let next = steps.next();
    while (!next.done) {
      yields++;
      next = steps.next();
    }
    // Two chunks of 1,000 documents analysed, one step before the postings, one chunk of 2,000 documents weighed,
    // then one step after bucketing the postings by term.
    assert.equal(yields, 5);
    const oneGo = new InvertedIndex(many, options);
    for (const query of ['robotics fleet', 'k7', 'startup 42', 'robotcs']) {
      assert.deepEqual(next.value.search(query, 20), oneGo.search(query, 20), query);
    }
  });
});

describe('inverted index: common terms', () => {
  const options = { fields: [{ boost: 3 }, { boost: 1 }] };
  // Documents from a small vocabulary, so most words are in many documents and many documents tie: the case where
  // a common term's best postings cannot settle the hits by themselves.
  const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'startup', 'data', 'build', 'robot', 'robots', 'rare'];
  const corpus = fc.array(
    fc.tuple(
      fc.array(fc.constantFrom(...vocabulary), { maxLength: 4 }),
      fc.array(fc.constantFrom(...vocabulary), { maxLength: 12 }),
    ),
    { minLength: 1, maxLength: 120, size: 'max' },
  );
  const query = fc.array(fc.constantFrom(...vocabulary, 'dat', 'robo', 'zeta'), { minLength: 1, maxLength: 4 });

  test('skipping common terms answers exactly as walking every posting: hits, scores, ties and total', () => {
    fc.assert(
      fc.property(
        corpus,
        query,
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (docs, words, limit, every, top) => {
          const texts = docs.map(([title, text]) => [title.join(' '), text.join(' ')]);
          // Every term in 3+ documents is common here, keeping its `top` best postings; the reference has none.
          const skipping = new InvertedIndex(texts, { ...options, commonMin: 3, topPostings: top });
          const walking = new InvertedIndex(texts, { ...options, commonMin: Infinity });
          const within = every > 1 ? DocSet.where(texts.length, (doc) => doc % every === 0) : undefined;
          const q = words.join(' ');
          assert.deepEqual(skipping.search(q, limit, within), walking.search(q, limit, within));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('a term in thousands of documents is answered from its best postings', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => [
      i % 10 === 0 ? 'Robotics startup' : `Startup ${i}`,
      `startup data ${'data '.repeat(i % 5)}`,
    ]);
    const skipping = new InvertedIndex(many, options);
    const walking = new InvertedIndex(many, { ...options, commonMin: Infinity });
    for (const q of ['startup', 'data', 'robotics startup', 'startup data', 'startup 42']) {
      assert.deepEqual(skipping.search(q, 10), walking.search(q, 10), q);
    }
  });
});
