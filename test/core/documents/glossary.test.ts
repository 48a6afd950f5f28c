import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { buildGlossary, checkGlossary, readGlossary, usageExists } from '../../../src/core/documents/glossary.js';
import { COMMIT_CHANGE_FLOOR, WINDOW_DAYS } from '../../../src/domain/rules.js';
import { Glossary, type GlossaryContent } from '../../../src/schemas/documents.js';
import { BASE } from '../fixtures.js';

const shipped = () => readGlossary(PACKAGED_CONTENT_DIR);

function withTerm(change: Partial<GlossaryContent['terms'][number]>, index = 0): GlossaryContent {
  const content = shipped();
  return { terms: content.terms.map((t, i) => (i === index ? { ...t, ...change } : t)) };
}

describe('glossary', () => {
  test('the shipped glossary has exactly 18 terms', () => {
    assert.equal(shipped().terms.length, 18);
  });

  test('numbers in descriptions come from the pipeline rules', () => {
    const term = shipped().terms.find((t) => t.slug === 'commit-velocity-change')!;
    assert.match(term.description, new RegExp(`prior ${WINDOW_DAYS}-day window`));
    assert.match(term.description, new RegExp(`below ${COMMIT_CHANGE_FLOOR} commits`));
  });

  test('no placeholder is left unfilled', () => {
    for (const term of shipped().terms) assert.doesNotMatch(term.description, /\{\{|\}\}/, term.slug);
  });

  test('a description naming an unknown placeholder is rejected', () => {
    assert.throws(
      () => checkGlossary(withTerm({ description: 'Uses {{NOT_A_RULE}} somewhere in the text.' })),
      /NOT_A_RULE/,
    );
  });

  test('a term used by a field the API does not have is rejected', () => {
    assert.throws(() => checkGlossary(withTerm({ usedIn: ['Startup.revenue'] })), /Startup\.revenue is not in the API/);
  });

  test('a duplicate term slug is rejected', () => {
    const content = shipped();
    assert.throws(() => checkGlossary(withTerm({ slug: content.terms[1]!.slug })), /duplicate term slug/);
  });

  test('usage references resolve schema fields and enum values', () => {
    assert.equal(usageExists('Startup.commitVelocity14d'), true);
    assert.equal(usageExists('SignalType.Framework migration'), true);
    assert.equal(usageExists('SignalType.Framework'), false);
    assert.equal(usageExists('Nothing.here'), false);
  });

  test('the document is a schema.org DefinedTermSet of 18 DefinedTerms with site URLs', () => {
    const doc = buildGlossary(shipped(), BASE);
    assert.deepEqual(Glossary.parse(doc), doc);
    assert.equal(doc['@type'], 'DefinedTermSet');
    assert.equal(doc.hasDefinedTerm.length, 18);
    for (const term of doc.hasDefinedTerm) {
      assert.equal(term['@type'], 'DefinedTerm');
      assert.equal(term.url, `${BASE}/glossary#${term.termCode}`);
      assert.ok(term.name.length > 0 && term.description.length > 0);
    }
  });
});
