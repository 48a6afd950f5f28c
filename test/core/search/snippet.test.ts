import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { snippet } from '../../../src/core/search/snippet.js';
import { contentTerms } from '../../../src/core/search/text.js';

const long = `${'Opening words that do not matter. '.repeat(10)}The acceleration of commits is measured here. ${'Closing filler text. '.repeat(10)}`;

describe('search snippets', () => {
  test('a short text is returned whole', () => {
    assert.equal(snippet('Short text.', ['short']), 'Short text.');
  });

  test('the snippet is cut around the first matched word, with ellipses on both sides', () => {
    const s = snippet(long, contentTerms('accelerating'));
    assert.match(s, /^…/);
    assert.match(s, /…$/);
    assert.match(s, /acceleration of commits/);
    assert.ok(s.length <= 202);
  });

  test('without a matched word the snippet is the beginning', () => {
    const s = snippet(long, ['zzz']);
    assert.ok(s.startsWith('Opening words'));
    assert.match(s, /…$/);
  });

  test('whitespace is collapsed', () => {
    assert.equal(snippet('a\n\n  b\tc', ['b']), 'a b c');
  });

  test('a long text with line breaks or runs of spaces is cut from its collapsed form', () => {
    const spaced = long.replace(/\. /g, '.\n\n  ');
    assert.equal(snippet(spaced, contentTerms('accelerating')), snippet(long, contentTerms('accelerating')));
  });

  test('a word with accents is found like its plain form', () => {
    const accented = long.replace('acceleration', 'accélération');
    assert.match(snippet(accented, contentTerms('acceleration')), /accélération of commits/);
  });
});
