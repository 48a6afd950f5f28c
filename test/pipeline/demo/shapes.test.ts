import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAutomationAuthor } from '../../../src/domain/automation.js';
import { parsePeriodSlug } from '../../../src/domain/periods.js';
import { NEW_REGULAR_MIN_COMMITS, NEW_REGULAR_MIN_DAYS, SIGNAL_RULE } from '../../../src/domain/rules.js';
import type { EvidenceMetrics, RankedStartup } from '../../../src/domain/records.js';
import { DEMO_PERIODS, DEMO_STARTUPS } from '../../../src/pipeline/demo/seed.js';
import { SIGNAL_TYPES } from '../../../src/schemas/enums.js';
import { generatedDemo } from '../../helpers/demo.js';

/**
 * The demo's activity has the shapes real activity has (version 3: look-back, merges, changed files), and the rule
 * reads them as it reads real weeks. Each test looks for one shape in the records the stages produced.
 */
const dataset = generatedDemo({
  seed: 'test-seed',
  startups: DEMO_STARTUPS,
  periods: DEMO_PERIODS,
  endPeriod: parsePeriodSlug('2026-w46'),
});
const records = dataset.periods.flatMap((p) => p.ranked.startups);
const evidence = (s: RankedStartup): EvidenceMetrics => s.metrics.evidence!;
const strong = (s: RankedStartup, type: string) =>
  s.startup.signalType === type && s.signalEvidence.strength === 'strong';

describe('demo activity shapes', () => {
  test('every week is judged by the current rule on version-3 evidence (look-back and changed files)', () => {
    for (const s of records) {
      assert.equal(s.signalEvidence.rule, SIGNAL_RULE);
      assert.equal(evidence(s).lookbackDays, 365);
    }
    assert.ok(records.filter((s) => evidence(s).infraFilesCurrent !== undefined).length > records.length * 0.95);
  });

  test('returning veterans are counted as returning, with their earlier day, and not as new', () => {
    const back = records.filter((s) => (evidence(s).returningContributors ?? 0) >= 3);
    assert.ok(back.length >= 100, `${back.length} weeks with 3 or more people back`);
    for (const s of back) {
      const people = evidence(s).people!;
      for (const p of people.filter((p) => p.kind === 'returning')) {
        assert.ok(p.lastSeenBefore && p.lastSeenBefore < p.firstCommit, `${s.login}: ${JSON.stringify(p)}`);
        assert.equal(p.regular, false);
      }
      assert.ok(people.filter((p) => p.kind === 'new').length <= evidence(s).newContributors, s.login);
    }
    // A team back from a pause is not a hiring burst: such a week reads as one only when newcomers are in it too.
    const readAsHiring = back.filter((s) => strong(s, 'Engineering hiring burst'));
    for (const s of readAsHiring) assert.ok(evidence(s).newRegularContributors! >= 2, s.login);
    assert.ok(readAsHiring.length < back.length / 5, `${readAsHiring.length} of ${back.length}`);
  });

  test('one-off contributors (one or two commits) are new but not regulars', () => {
    const withDriveBy = records.filter((s) => evidence(s).people!.some((p) => p.kind === 'new' && p.commits <= 2));
    assert.ok(withDriveBy.length >= records.length / 10, `${withDriveBy.length} weeks`);
    for (const s of withDriveBy) {
      for (const p of evidence(s).people!.filter((p) => p.kind === 'new')) {
        const repeated = p.commits >= NEW_REGULAR_MIN_COMMITS && p.activeDays >= NEW_REGULAR_MIN_DAYS;
        assert.equal(p.regular, repeated, `${s.login}: ${JSON.stringify(p)}`);
      }
      assert.ok(evidence(s).newRegularContributors! < evidence(s).newContributors, s.login);
    }
  });

  test('automation and AI agents commit in the raw activity and are filtered out of the people', () => {
    assert.ok(records.every((s) => (evidence(s).automationCommits ?? 0) > 0));
    for (const s of records) {
      for (const p of evidence(s).people!) assert.ok(!p.login || !isAutomationAuthor(p.login), p.login ?? '');
    }
  });

  test('merge commits are present and counted apart', () => {
    const merged = records.filter((s) => (evidence(s).mergeCommits ?? 0) > 0);
    assert.ok(merged.length > records.length / 2, `${merged.length} of ${records.length}`);
  });

  test('quiet weeks: every week has startups with no clear signal, said so in their summary', () => {
    for (const { period, ranked } of dataset.periods) {
      const quiet = ranked.startups.filter((s) => s.signalEvidence.strength === 'none');
      assert.ok(quiet.length >= ranked.startups.length / 10, `${period.slug}: ${quiet.length}`);
      for (const s of quiet) assert.match(s.signalEvidence.summary!, /^No clear signal/);
      for (const s of ranked.trending) assert.notEqual(s.signalEvidence.strength, 'none');
    }
  });

  for (const type of SIGNAL_TYPES) {
    test(`${type} is strong in some weeks`, () => {
      const weeks = records.filter((s) => strong(s, type));
      assert.ok(weeks.length >= 20, `${weeks.length} strong weeks`);
    });
  }

  test('a strong hiring burst has at least two new regulars', () => {
    for (const s of records.filter((s) => strong(s, 'Engineering hiring burst'))) {
      assert.ok(evidence(s).newRegularContributors! >= 2, s.login);
    }
  });

  test('infrastructure buildouts inside application repositories are strong without new repositories', () => {
    const inside = records.filter(
      (s) =>
        strong(s, 'Infrastructure buildout') &&
        evidence(s).newInfraRepos.length === 0 &&
        (evidence(s).infraFilesCurrent ?? 0) >= 5,
    );
    assert.ok(inside.length >= 20, `${inside.length} weeks`);
    assert.ok(inside.some((s) => evidence(s).infraPaths!.some((p) => /:deploy\/helm\//.test(p))));
  });

  test('migrations inside repositories: files moved to another language, and a framework replaced', () => {
    const moved = records.filter(
      (s) => strong(s, 'Framework migration') && (evidence(s).languageMove?.files ?? 0) >= 20,
    );
    const swapped = records.filter((s) => strong(s, 'Framework migration') && evidence(s).frameworkSwaps!.length > 0);
    assert.ok(moved.length >= 10, `${moved.length} weeks with files moved`);
    assert.ok(swapped.length >= 10, `${swapped.length} weeks with a framework replaced`);
  });

  test('a strong deploy spike lists its releases, tags or deployments', () => {
    for (const s of records.filter((s) => strong(s, 'Deploy frequency spike'))) {
      assert.ok(evidence(s).deployEvents!.length >= 4, s.login);
    }
  });
});
