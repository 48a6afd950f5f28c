import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasRankableEvidence, signalLabel } from '../../src/domain/signal-label.js';

describe('signal label', () => {
  test('a record of rule evidence-v2 carries the strength and summary the classify stage stored', () => {
    const label = signalLabel('Deploy frequency spike', {
      signalEvidence: {
        rule: 'evidence-v2',
        strength: 'strong',
        summary: 'Deploy frequency spike (strong evidence): 5 deploy days in the last 14 days',
      },
    });
    assert.deepEqual(label, {
      signalStrength: 'strong',
      signalEvidence: 'Deploy frequency spike (strong evidence): 5 deploy days in the last 14 days',
      signalFinding: 'Deploy frequency spike',
    });
  });

  test('a type given by the tie order reads as no clear signal, not as the type', () => {
    const label = signalLabel('Framework migration', {
      signalEvidence: {
        rule: 'evidence-v2',
        strength: 'none',
        summary: 'Framework migration: no evidence for any signal type this period (assigned by the tie order)',
      },
    });
    assert.equal(label.signalStrength, 'none');
    assert.equal(label.signalFinding, 'No clear signal this week');
    assert.match(label.signalEvidence, /^No clear signal this week: no signal type has evidence/);
    assert.equal(hasRankableEvidence(label), false);
  });

  test('a week of the older rule is strong when the stored numbers show its rule holding', () => {
    const label = signalLabel('Infrastructure buildout', { newRepos30d: 4, signalEvidence: { rule: 'activity-v1' } });
    assert.deepEqual(label, {
      signalStrength: 'strong',
      signalEvidence:
        'Infrastructure buildout (strong evidence, rule activity-v1): 4 repositories created in the last 30 days',
      signalFinding: 'Infrastructure buildout',
    });
  });

  test('the fallback type of the older rule reads as no clear signal', () => {
    const label = signalLabel('Deploy frequency spike', { signalEvidence: { rule: 'activity-v1' } });
    assert.equal(label.signalStrength, 'none');
    assert.equal(label.signalFinding, 'No clear signal this week');
    assert.match(
      label.signalEvidence,
      /^No clear signal this week: no evidence \(rule activity-v1 gives Deploy frequency spike/,
    );
  });

  test('a rule of the older kind that the stored numbers do not show holding is not claimed', () => {
    const label = signalLabel('Engineering hiring burst', {
      contributorsCurrent: 3,
      contributorsPrior: 3,
      contributorChangePct: 0,
      signalEvidence: { rule: 'activity-v1' },
    });
    assert.equal(label.signalStrength, 'none');
  });

  test('a record with no stored evidence says so', () => {
    assert.deepEqual(signalLabel('Framework migration', {}), {
      signalStrength: 'none',
      signalEvidence: 'No clear signal this week: no evidence recorded for this record',
      signalFinding: 'No clear signal this week',
    });
  });

  test('weak and strong evidence may be ranked across sectors', () => {
    assert.equal(hasRankableEvidence({ signalStrength: 'weak' }), true);
    assert.equal(hasRankableEvidence({ signalStrength: 'strong' }), true);
  });
});
