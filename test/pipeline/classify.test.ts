import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accelerate } from '../../src/pipeline/accelerate.js';
import {
  classify,
  classifyWithEvidence,
  estimateStage,
  legacySignal,
  strongestSignal,
} from '../../src/pipeline/classify.js';
import { SIGNAL_TYPES } from '../../src/schemas/enums.js';
import type { EvidenceMetrics, OrgMetrics } from '../../src/domain/records.js';

/** A team of 4 doing the same thing in both windows, with no evidence for any type. */
const quietEvidence = (over: Partial<EvidenceMetrics> = {}): EvidenceMetrics => ({
  deployDaysCurrent: 0,
  deployDaysPrior: 0,
  releasesCurrent: 0,
  tagsCurrent: 0,
  deploymentsCurrent: 0,
  deployIncompleteRepos: [],
  newContributors: 0,
  departedContributors: 0,
  newInfraRepos: [],
  infraCommitsCurrent: 0,
  infraCommitsPrior: 0,
  languageShiftPct: 0,
  ecosystemShiftPct: 0,
  risingLanguage: null,
  risingEcosystem: null,
  ...over,
});

const metrics = (over: Partial<OrgMetrics> = {}, evidence?: Partial<EvidenceMetrics>): OrgMetrics => ({
  commitsCurrent: 100,
  commitsPrior: 100,
  contributorsCurrent: 4,
  contributorsPrior: 4,
  contributors28d: 5,
  newRepos30d: 0,
  newLanguages: [],
  geography: 'Unknown',
  evidence: quietEvidence(evidence),
  ...over,
});
const classified = (m: OrgMetrics) => classifyWithEvidence(m, accelerate(m));

describe('classify stage (rule evidence-v2)', () => {
  test('deploy frequency spike: 6 deploy days against 2 scores min(6/4, +200%/100%) = 1.5, strong', () => {
    const c = classified(metrics({}, { deployDaysCurrent: 6, deployDaysPrior: 2, releasesCurrent: 4, tagsCurrent: 2 }));
    assert.equal(c.signalType, 'Deploy frequency spike');
    assert.equal(c.evidence.scores!['Deploy frequency spike'], 1.5);
    assert.equal(c.evidence.strength, 'strong');
    assert.match(
      c.evidence.summary!,
      /6 deploy days in the last 14 days \(4 releases, 2 other tags, 0 deployments\) against 2 \(\+200%\)/,
    );
  });

  test('engineering hiring burst: 3 new people and 4 → 7 contributors score min(3/2, +75%/25%) = 1.5', () => {
    const c = classified(metrics({ contributorsCurrent: 7, contributorsPrior: 4 }, { newContributors: 3 }));
    assert.equal(c.signalType, 'Engineering hiring burst');
    assert.equal(c.evidence.scores!['Engineering hiring burst'], 1.5);
    assert.equal(c.evidence.strength, 'strong');
  });

  test('infrastructure buildout: 2 new infrastructure repositories score 2/2 = 1', () => {
    const c = classified(metrics({ newRepos30d: 2 }, { newInfraRepos: ['helm-charts', 'terraform-modules'] }));
    assert.equal(c.signalType, 'Infrastructure buildout');
    assert.equal(c.evidence.scores!['Infrastructure buildout'], 1);
    assert.match(c.evidence.summary!, /2 new infrastructure repositories \(helm-charts, terraform-modules\)/);
  });

  test('infrastructure buildout: 30 commits to infrastructure against 10 score min(30/20, +200%/100%) = 1.5', () => {
    const c = classified(metrics({}, { infraCommitsCurrent: 30, infraCommitsPrior: 10 }));
    assert.equal(c.signalType, 'Infrastructure buildout');
    assert.equal(c.evidence.scores!['Infrastructure buildout'], 1.5);
  });

  test('framework migration: a 40-point language shift scores (40 − 15) / (30 − 15) = 1.67', () => {
    const c = classified(metrics({}, { languageShiftPct: 40, ecosystemShiftPct: 35, risingLanguage: 'Rust' }));
    assert.equal(c.signalType, 'Framework migration');
    assert.equal(c.evidence.scores!['Framework migration'], 1.67);
    assert.match(c.evidence.summary!, /language mix moved 40 points towards Rust/);
  });

  test('fifty files moved from one language to another are a framework migration', () => {
    const c = classified(metrics({}, { languageMove: { from: 'JavaScript', to: 'TypeScript', files: 50 } }));
    assert.equal(c.evidence.scores!['Framework migration'], 1);
  });

  test('twenty files converted to another language are one component, not a migration', () => {
    const c = classified(metrics({}, { languageMove: { from: 'JavaScript', to: 'TypeScript', files: 20 } }));
    assert.equal(c.evidence.scores!['Framework migration'], 0.4);
    assert.equal(c.evidence.strength, 'none');
  });

  test('a shift within the ordinary wobble (15 points or less) is no migration evidence', () => {
    const c = classified(metrics({}, { languageShiftPct: 15, ecosystemShiftPct: 12 }));
    assert.equal(c.evidence.scores!['Framework migration'], 0);
  });

  test('the strongest evidence wins, whatever the order of the rules', () => {
    const c = classified(
      metrics(
        { contributorsCurrent: 6, contributorsPrior: 4 },
        { newContributors: 2, deployDaysCurrent: 12, deployDaysPrior: 3 },
      ),
    );
    // hiring: min(2/2, +50%/25%) = 1; deploy: min(12/4, +300%/100%) = 3.
    assert.equal(c.evidence.scores!['Engineering hiring burst'], 1);
    assert.equal(c.signalType, 'Deploy frequency spike');
  });

  test('evidence below every threshold but at least three quarters of one gives that type, marked weak', () => {
    // deploy: 3 against 2 → min(3/4, +50%/100%) = 0.5; hiring: 1 new, 4 → 5 → min(1/2, +25%/25%) = 0.5 ...
    const c = classified(
      metrics(
        { contributorsCurrent: 5, contributorsPrior: 4 },
        { deployDaysCurrent: 3, deployDaysPrior: 2, newContributors: 1, languageShiftPct: 27 },
      ),
    );
    // ... migration: (27 − 15) / 15 = 0.8, the strongest.
    assert.equal(c.signalType, 'Framework migration');
    assert.equal(c.evidence.strength, 'weak');
    assert.match(c.evidence.summary!, /^Framework migration \(weak evidence\)/);
  });

  test('evidence under three quarters of every threshold is no clear signal', () => {
    const c = classified(
      metrics(
        { contributorsCurrent: 5, contributorsPrior: 4 },
        { deployDaysCurrent: 3, deployDaysPrior: 2, newContributors: 1, languageShiftPct: 24 },
      ),
    );
    assert.equal(c.evidence.strength, 'none');
    assert.equal(c.evidence.scores!['Framework migration'], 0.6);
  });

  test('falling deploys and falling commits never make a deploy frequency spike', () => {
    const c = classified(
      metrics(
        { commitsCurrent: 40, commitsPrior: 100, contributorsCurrent: 3, contributorsPrior: 4 },
        { deployDaysCurrent: 1, deployDaysPrior: 5, departedContributors: 1 },
      ),
    );
    assert.ok(c.evidence.scores!['Deploy frequency spike'] < 0);
    assert.notEqual(c.signalType, 'Deploy frequency spike');
  });

  test('equal scores go in the documented tie order', () => {
    assert.equal(
      strongestSignal({
        'Engineering hiring burst': 1,
        'Infrastructure buildout': 1,
        'Framework migration': 0.5,
        'Deploy frequency spike': 1,
      }).type,
      'Infrastructure buildout',
    );
  });

  test('no evidence at all gives the first type of the tie order as a placeholder, summarised as no clear signal', () => {
    const c = classified(metrics());
    assert.equal(c.signalType, 'Framework migration');
    assert.equal(c.evidence.strength, 'none');
    assert.match(c.evidence.summary!, /^No clear signal this week/);
  });

  test('every outcome is one of the four enumerated signal types', () => {
    for (const cur of [0, 3, 50]) {
      for (const days of [0, 2, 9]) {
        const m = metrics({ contributorsCurrent: cur }, { deployDaysCurrent: days, newContributors: cur });
        assert.ok(SIGNAL_TYPES.includes(classifyWithEvidence(m, accelerate(m)).signalType));
      }
    }
  });
});

describe('infrastructure files inside repositories', () => {
  const surge = { infraFilesCurrent: 20, infraFilesPrior: 2, infraChurnCurrent: 800, churnCurrent: 2000 };

  test('twenty infrastructure files and 800 of 2,000 lines changed against two files is a strong infrastructure buildout', () => {
    const c = classified(metrics({}, surge));
    assert.equal(c.signalType, 'Infrastructure buildout');
    assert.equal(c.evidence.strength, 'strong');
  });

  test("the same files changed in a fortnight in which no person committed are automation's, and count for nothing", () => {
    const c = classified(metrics({ commitsCurrent: 0, contributorsCurrent: 0 }, surge));
    assert.equal(c.evidence.scores!['Infrastructure buildout'], 0);
    assert.equal(c.evidence.strength, 'none');
  });
});

describe('classify stage (legacy rule activity-v1, for activity stored without evidence)', () => {
  const legacy = (over: Partial<OrgMetrics>) => {
    const m = metrics({ evidence: undefined, ...over });
    return legacySignal(m, accelerate(m));
  };

  test('activity without evidence is classified by the legacy rule and says so', () => {
    const m = metrics({ evidence: undefined, newRepos30d: 3 });
    const c = classifyWithEvidence(m, accelerate(m));
    assert.equal(c.signalType, 'Infrastructure buildout');
    assert.deepEqual(c.evidence, { rule: 'activity-v1' });
  });

  test('the legacy rule keeps its order: hiring, three new repositories, a new language, otherwise deploy', () => {
    assert.equal(legacy({ contributorsCurrent: 10, contributorsPrior: 5, newRepos30d: 5 }), 'Engineering hiring burst');
    assert.equal(legacy({ newRepos30d: 3 }), 'Infrastructure buildout');
    assert.equal(legacy({ newRepos30d: 1, newLanguages: ['Rust'] }), 'Framework migration');
    assert.equal(legacy({ commitsCurrent: 300 }), 'Deploy frequency spike');
  });
});

describe('stage', () => {
  test('stage is estimated from unique authors over 28 days', () => {
    assert.equal(estimateStage(metrics({ contributors28d: 2 })), 'Pre-seed');
    assert.equal(estimateStage(metrics({ contributors28d: 3 })), 'Pre-seed');
    assert.equal(estimateStage(metrics({ contributors28d: 4 })), 'Seed');
    assert.equal(estimateStage(metrics({ contributors28d: 25 })), 'Series A/B');
    assert.equal(estimateStage(metrics({ contributors28d: 41 })), 'Growth');
  });

  test('a stage known from the watchlist wins over the estimate', () => {
    const m = metrics({ contributors28d: 100 });
    const c = classify({ login: 'a', displayName: 'A', sector: 'robotics', stage: 'Seed' }, m, accelerate(m));
    assert.deepEqual([c.stage, c.stageSource], ['Seed', 'watchlist']);
  });

  test('a stage the watchlist states with a public source carries that source', () => {
    const m = metrics({ contributors28d: 100 });
    const source = 'https://acme.example/blog/series-a';
    const entry = { login: 'a', displayName: 'A', sector: 'robotics' as const, stage: 'Series A/B' as const };
    const c = classify({ ...entry, stageSource: source }, m, accelerate(m));
    assert.deepEqual([c.stage, c.stageSource], ['Series A/B', source]);
  });

  test('an estimated stage says it is estimated', () => {
    const m = metrics({ contributors28d: 4 });
    const c = classify({ login: 'a', displayName: 'A', sector: 'robotics' }, m, accelerate(m));
    assert.deepEqual([c.stage, c.stageSource], ['Seed', 'estimated']);
  });
});
