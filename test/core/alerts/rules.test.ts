import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changesFor, percentOf, type PeriodState, type StartupState } from '../../../src/core/alerts/rules.js';
import { TRENDING_SIZE } from '../../../src/domain/rules.js';
import { SIGNAL_TYPES } from '../../../src/schemas/enums.js';
import { generatedPeriods, states, withChange } from './fixtures.js';

const [previous, generatedCurrent] = states(generatedPeriods()) as [PeriodState, PeriodState];
const all = (p: PeriodState) => [...p.startups.values()];
const inTop = (s: StartupState | undefined) => s !== undefined && s.rank !== null && s.rank <= TRENDING_SIZE;
/** The second period with no change against the first, so each test makes exactly the change it names. */
const unchanged: PeriodState = { ...generatedCurrent, startups: new Map(previous.startups) };
const ranked = all(previous).filter((s) => inTop(s));
const unranked = all(previous).filter((s) => s.rank === null);
const key = (s: StartupState) => s.login.toLowerCase();

describe('alert event rules on consecutive generated periods', () => {
  test('the generated periods have both trending and unranked startups to work with', () => {
    assert.ok(ranked.length > 0 && unranked.length > 0);
  });

  test('nothing changed: no event, whatever is watched', () => {
    assert.deepEqual(changesFor({ trendingTop20: true, sectors: ['robotics'] }, previous, unchanged), []);
  });

  test('a watched startup entering the top 20 is one trending.entered event', () => {
    const s = unranked[0]!;
    const current = withChange(unchanged, key(s), { rank: 3 });
    const changes = changesFor({ startups: [s.login] }, previous, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.login, c.before?.rank, c.after?.rank]),
      [['trending.entered', key(s), null, 3]],
    );
  });

  test('trendingTop20 makes any startup entering the top 20 an event, watched or not', () => {
    const s = unranked[1]!;
    const current = withChange(unchanged, key(s), { rank: 20 });
    const changes = changesFor({ trendingTop20: true }, previous, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.login]),
      [['trending.entered', key(s)]],
    );
  });

  test('a watched startup leaving the top 20 is one trending.left event', () => {
    const s = ranked[0]!;
    const current = withChange(unchanged, key(s), { rank: 21 });
    const changes = changesFor({ sectors: [s.sector] }, previous, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.login]),
      [['trending.left', key(s)]],
    );
  });

  test('a watched startup whose signal type changed is one signal_type.changed event', () => {
    const s = all(previous)[0]!;
    const other = SIGNAL_TYPES.find((t) => t !== s.signalType)!;
    const current = withChange(unchanged, key(s), { signalType: other, finding: true });
    const changes = changesFor({ startups: [s.login.toUpperCase()] }, previous, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.before?.signalType, c.after?.signalType]),
      [['signal_type.changed', s.signalType, other]],
    );
  });

  test('watching a signal type covers a startup changing to it and one changing from it', () => {
    const [a, b] = all(previous);
    const target = SIGNAL_TYPES.find((t) => t !== a!.signalType && t !== b!.signalType)!;
    let current = withChange(unchanged, key(a!), { signalType: target, finding: true });
    const watch = { signalTypes: [target] };
    assert.deepEqual(
      changesFor(watch, previous, current).map((c) => c.login),
      [key(a!)],
    );
    const before = withChange(previous, key(b!), { signalType: target, finding: true });
    current = withChange(unchanged, key(b!), { signalType: b!.signalType });
    assert.deepEqual(
      changesFor(watch, before, current).map((c) => [c.type, c.login]),
      [['signal_type.changed', key(b!)]],
    );
  });

  test('a signal type changing between two weeks without evidence for either is no event', () => {
    const s = all(previous)[0]!;
    const before = withChange(previous, key(s), { finding: false });
    const other = SIGNAL_TYPES.find((t) => t !== s.signalType)!;
    const current = withChange(unchanged, key(s), { signalType: other, finding: false });
    assert.deepEqual(changesFor({ startups: [s.login] }, before, current), []);
  });

  test('a signal type changing into a week with evidence for it is an event, from a week without any', () => {
    const s = all(previous)[0]!;
    const before = withChange(previous, key(s), { finding: false });
    const other = SIGNAL_TYPES.find((t) => t !== s.signalType)!;
    const current = withChange(unchanged, key(s), { signalType: other, finding: true });
    assert.deepEqual(
      changesFor({ startups: [s.login] }, before, current).map((c) => c.type),
      ['signal_type.changed'],
    );
  });

  test('watching a signal type does not match a startup whose type is a placeholder without evidence', () => {
    const s = unranked[0]!;
    const target = SIGNAL_TYPES.find((t) => t !== s.signalType)!;
    const before = withChange(previous, key(s), { signalType: target, finding: false });
    const current = withChange(unchanged, key(s), { signalType: target, finding: false, rank: 3 });
    assert.deepEqual(changesFor({ signalTypes: [target] }, before, current), []);
  });

  test('commit velocity crossing the threshold upwards is one commit_velocity.crossed event', () => {
    const s = all(previous).find((x) => percentOf(x.commitVelocityChange) < 40)!;
    const current = withChange(unchanged, key(s), { commitVelocityChange: '+55%' });
    const changes = changesFor({ startups: [s.login], thresholds: { commitVelocityChange: 40 } }, previous, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.threshold, c.direction, c.after?.commitVelocityChange]),
      [['commit_velocity.crossed', 40, 'up', '+55%']],
    );
  });

  test('commit velocity falling back below the threshold is a crossing downwards', () => {
    const s = all(previous)[2]!;
    const before = withChange(previous, key(s), { commitVelocityChange: '+80%' });
    const current = withChange(unchanged, key(s), { commitVelocityChange: '+10%' });
    const changes = changesFor({ startups: [s.login], thresholds: { commitVelocityChange: 50 } }, before, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.direction]),
      [['commit_velocity.crossed', 'down']],
    );
  });

  test('contributor growth crossing the threshold is one contributor_growth.crossed event', () => {
    const s = all(previous).find((x) => percentOf(x.contributorGrowth) < 25)!;
    const current = withChange(unchanged, key(s), { contributorGrowth: '+25%' });
    const changes = changesFor({ sectors: [s.sector], thresholds: { contributorGrowth: 25 } }, previous, current);
    assert.deepEqual(
      changes.map((c) => [c.type, c.login, c.direction]),
      [['contributor_growth.crossed', key(s), 'up']],
    );
  });

  test('a figure staying on the same side of the threshold is no event', () => {
    const s = all(previous)[3]!;
    const before = withChange(previous, key(s), { contributorGrowth: '+60%' });
    const current = withChange(unchanged, key(s), { contributorGrowth: '+90%' });
    assert.deepEqual(changesFor({ startups: [s.login], thresholds: { contributorGrowth: 50 } }, before, current), []);
  });

  test('changes of startups nobody watches are no events', () => {
    const s = ranked[0]!;
    const current = withChange(unchanged, key(s), {
      rank: null,
      signalType: SIGNAL_TYPES.find((t) => t !== s.signalType)!,
    });
    const elsewhere = all(previous).find((x) => x.sector !== s.sector)!;
    assert.deepEqual(changesFor({ sectors: [elsewhere.sector] }, previous, current), []);
  });

  test('between the two generated periods as they are, trendingTop20 lists exactly the new members of the top 20', () => {
    const expected = all(generatedCurrent)
      .filter((s) => inTop(s) && !inTop(previous.startups.get(key(s))))
      .map(key)
      .sort();
    const changes = changesFor({ trendingTop20: true }, previous, generatedCurrent);
    assert.deepEqual(
      changes.map((c) => c.login),
      expected,
    );
    assert.ok(changes.every((c) => c.type === 'trending.entered'));
  });
});
