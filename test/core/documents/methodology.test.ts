import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { methodologySteps } from '../../../src/content/methodology.js';
import { buildMethodology, renderMethodologyMarkdown } from '../../../src/core/documents/methodology.js';
import { Methodology } from '../../../src/schemas/documents.js';
import { BASE } from '../fixtures.js';

describe('methodology', () => {
  test('the HowTo has exactly 6 steps named collect, filter, normalise, accelerate, classify, rank', () => {
    const doc = buildMethodology(BASE);
    assert.deepEqual(
      doc.step.map((s) => [s.position, s.name]),
      [
        [1, 'collect'],
        [2, 'filter'],
        [3, 'normalise'],
        [4, 'accelerate'],
        [5, 'classify'],
        [6, 'rank'],
      ],
    );
  });

  test('each step’s text is the methodology data’s text', () => {
    const doc = buildMethodology(BASE);
    assert.deepEqual(
      doc.step.map((s) => s.text),
      methodologySteps.map((s) => s.text),
    );
  });

  test('the HowTo matches its schema', () => {
    const doc = buildMethodology(BASE);
    assert.deepEqual(Methodology.parse(doc), doc);
    assert.equal(doc['@type'], 'HowTo');
  });

  test('the committed docs/methodology.md is what the generator writes', () => {
    const committed = readFileSync(new URL('../../../docs/methodology.md', import.meta.url), 'utf8');
    assert.equal(committed, renderMethodologyMarkdown(), 'run `npx tsx scripts/methodology-doc.ts`');
  });
});
