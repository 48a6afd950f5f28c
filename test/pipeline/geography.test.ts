import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normaliseGeography } from '../../src/pipeline/geography.js';

describe('geography normalisation', () => {
  const cases: [string | null, string][] = [
    ['San Francisco, CA', 'United States'],
    ['Austin, TX, USA', 'United States'],
    ['London, UK', 'United Kingdom'],
    ['berlin', 'Germany'],
    ['Zürich, Switzerland', 'Switzerland'],
    ['Remote', 'Remote'],
    ['', 'Unknown'],
    [null, 'Unknown'],
    ['  Somewhere   Nice ', 'Somewhere Nice'],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} becomes ${expected}`, () => assert.equal(normaliseGeography(input), expected));
  }
});
