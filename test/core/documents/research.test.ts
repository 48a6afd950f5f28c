import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  median,
  percentValue,
  RESEARCH_SLUGS,
  researchFindings,
  warmResearch,
} from '../../../src/core/documents/research.js';
import { SIGNAL_TYPES } from '../../../src/schemas/enums.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();

describe('research findings', () => {
  test('every stable slug has one finding, in order, with its research URL and the period', () => {
    const findings = researchFindings(snapshot, BASE);
    assert.deepEqual(
      findings.map((f) => f.slug),
      [...RESEARCH_SLUGS],
    );
    for (const f of findings) {
      assert.equal(f.url, `${BASE}/research/${f.slug}`);
      assert.equal(f.period, snapshot.period.slug);
      assert.ok(f.title.length > 0 && f.question.endsWith('?'));
    }
  });

  test('findings are memoised per snapshot and rebuilt for another snapshot', () => {
    assert.equal(researchFindings(snapshot, BASE), researchFindings(snapshot, BASE));
    const other = demoSnapshot({ startups: 60, seed: 'other' });
    assert.notEqual(researchFindings(other, BASE), researchFindings(snapshot, BASE));
  });

  test('signal-type shares are computed from the startups and sum to 100', () => {
    const finding = researchFindings(snapshot, BASE).find((f) => f.slug === 'signal-type-share')!;
    let total = 0;
    for (const type of SIGNAL_TYPES) {
      const count = snapshot.startups.filter((s) => s.startup.signalType === type).length;
      assert.equal(finding.values[`${type} (count)`], count);
      total += finding.values[type] as number;
    }
    assert.ok(Math.abs(total - 100) < 0.5, `shares sum to ${total}`);
  });

  test('the sector-median finding names the sector with the highest median and states it in the claim', () => {
    const finding = researchFindings(snapshot, BASE).find((f) => f.slug === 'median-commit-velocity-by-sector')!;
    const medians = [...snapshot.bySector].map(
      ([slug, list]) => [slug, median(list.map((s) => s.startup.commitVelocity14d))] as const,
    );
    const top = Math.max(...medians.map(([, m]) => m));
    assert.equal(finding.values[finding.values.highestSector as string], top);
    assert.match(finding.claim, new RegExp(`\\(${top}\\)`));
  });

  test('claims computed from the synthetic dataset say so', () => {
    for (const f of researchFindings(snapshot, BASE)) {
      assert.equal(f.synthetic, true);
      assert.match(f.claim, /synthetic demo dataset/);
    }
    const real = demoSnapshot({ startups: 45, synthetic: false });
    for (const f of researchFindings(real, BASE)) assert.doesNotMatch(f.claim, /synthetic/);
  });

  test('a warm-up computes the findings in several steps, the same findings a read computes at once', () => {
    const fresh = demoSnapshot();
    const steps = warmResearch(fresh);
    let yields = 0;
    while (!steps.next().done) yields++;
    assert.ok(yields >= 5, `${yields} yields`);
    assert.deepEqual(researchFindings(fresh, BASE), researchFindings(snapshot, BASE));
  });

  test('median takes the mean of the two middle values for an even count', () => {
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([]), 0);
  });

  test('percentValue parses signed percent text', () => {
    assert.equal(percentValue('+42%'), 42);
    assert.equal(percentValue('-7%'), -7);
    assert.equal(percentValue('+0%'), 0);
  });
});
