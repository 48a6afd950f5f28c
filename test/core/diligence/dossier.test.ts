import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diligenceDossier, diligenceUsage } from '../../../src/core/diligence/dossier.js';
import { DiligenceResponse, DiligenceUsage } from '../../../src/schemas/answers.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();

describe('diligence dossiers', () => {
  test('a documented company has its acquirer with the source URL, in the contract shape', () => {
    const result = diligenceDossier(snapshot, BASE, 'GitHub');
    assert.equal(result.found, true);
    const body = DiligenceResponse.parse(result.body);
    assert.deepEqual(Object.keys(body.dossier), [
      'entity',
      'found',
      'acquiredBy',
      'acquisitionsMade',
      'backedBy',
      'signal',
      'notes',
    ]);
    assert.equal(body.dossier.found, true);
    assert.equal(body.dossier.acquiredBy[0]!.acquirer, 'Microsoft');
    const url = body.dossier.acquiredBy[0]!.sources[0]!.url;
    assert.ok(body.citation.some((c) => c.url === url));
  });

  test('a one-letter typo of a held entity is a miss that offers the entity, never its facts', () => {
    const result = diligenceDossier(snapshot, BASE, 'Microsft');
    assert.equal(result.found, false);
    assert.equal(result.how, 'none');
    assert.ok(result.body.candidates?.some((c) => c.name === 'Microsoft'));
  });

  test('a former name finds its entity and the note says it is a former name', () => {
    const result = diligenceDossier(snapshot, BASE, 'Sequoia Capital India');
    assert.equal(result.body.dossier.entity, 'Peak XV Partners');
    assert.match(result.body.dossier.notes[0]!, /former name of Peak XV Partners/);
  });

  test('a related entity is never answered for another: 404 with the candidate and the relation', () => {
    for (const [query, candidate] of [
      ['Sequoia Capital', 'Peak XV Partners'],
      ['Docker', 'Docker Enterprise'],
      ['Terraform', 'HashiCorp'],
    ] as const) {
      const { found, body, how } = diligenceDossier(snapshot, BASE, query);
      assert.equal(found, false, query);
      assert.equal(how, 'none');
      assert.equal(body.dossier.found, false);
      assert.equal(body.dossier.entity, query);
      assert.equal(body.candidates?.[0]?.name, candidate, query);
    }
  });

  test('a real company absent from the corpus is a 404, never a similar one', () => {
    for (const query of [
      'GitLab',
      'Redis',
      'Replit',
      'Zoom',
      'WorkOS',
      'Zed',
      'Cockroach Labs',
      'Confluence',
      'Dockr',
    ]) {
      const { found, body } = diligenceDossier(snapshot, BASE, query);
      assert.equal(found, false, query);
      assert.equal(body.dossier.entity, query);
    }
  });

  test('a generic word is a 404 without candidates', () => {
    for (const query of ['data', 'cloud', 'systems', 'health']) {
      const { found, body } = diligenceDossier(snapshot, BASE, query);
      assert.equal(found, false, query);
      assert.deepEqual(body.candidates, [], query);
    }
  });

  test('a near miss is offered as a candidate with a link to its dossier', () => {
    const { body } = diligenceDossier(snapshot, BASE, 'GitLab');
    assert.equal(body.candidates?.[0]?.name, 'GitHub');
    assert.equal(body.candidates?.[0]?.url, `${BASE}/api/diligence.json?company=GitHub`);
    assert.match(body.dossier.notes.join(' '), /not substituted/);
  });

  test('a demo startup has no M&A facts, its published signal, and notes that say it is fictional', () => {
    const s = snapshot.startups[3]!;
    const { found, body } = diligenceDossier(snapshot, BASE, s.login);
    assert.equal(found, true);
    assert.equal(body.dossier.entity, s.startup.name);
    assert.deepEqual(body.dossier.signal, s.startup);
    assert.deepEqual([body.dossier.acquiredBy, body.dossier.acquisitionsMade, body.dossier.backedBy], [[], [], []]);
    assert.match(body.dossier.notes.join(' '), /fictional startup from the synthetic demo dataset/);
  });

  test('a name outside the corpus is a 404 dossier with found false and honest notes', () => {
    const { found, body } = diligenceDossier(snapshot, BASE, 'Qwertyuiop Holdings');
    assert.equal(found, false);
    assert.equal(body.dossier.found, false);
    assert.equal(body.dossier.entity, 'Qwertyuiop Holdings');
    assert.equal(body.dossier.signal, null);
    assert.match(body.dossier.notes.join(' '), /not evidence that no acquisition or funding exists/);
  });

  test('the usage envelope counts the coverage and lists every answerable name', () => {
    const usage = DiligenceUsage.parse(diligenceUsage(snapshot, BASE));
    // The demo startups are fictional: counted apart, never as tracked companies beside real acquirers.
    assert.equal(usage.metadata.coverage.trackedCompanies, 0);
    assert.equal(usage.metadata.coverage.demoStartups, snapshot.startups.length);
    assert.ok(usage.metadata.coverage.companiesAndFunds >= 40);
    assert.ok(usage.metadata.coverage.documentedAcquisitions >= 40);
    assert.equal(usage.metadata.coverage.answerableEntities, usage.answerableEntities.length);
    assert.ok(usage.answerableEntities.includes('GitHub'));
    assert.ok(usage.answerableEntities.includes(snapshot.startups[0]!.startup.name));
  });
});
