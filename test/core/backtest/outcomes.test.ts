import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { OUTCOMES_FILE, parseOutcomes, readOutcomes, stageOfRound } from '../../../src/core/backtest/outcomes.js';
import { readWatchlist, SHIPPED_WATCHLIST } from '../../../src/pipeline/watchlist.js';

const TODAY = new Date('2026-12-01T12:00:00Z');

const round = {
  announced: '2025-03-04',
  kind: 'Series A',
  amount: { value: 12_000_000, currency: 'USD' },
  source: 'https://example.com/blog/series-a',
  publisher: 'Example Inc.',
  sourceKind: 'company',
};
const entry = {
  login: 'example',
  searchedOn: '2026-11-30',
  searched: ['"Example" raises', 'SEC EDGAR full-text: Example Inc.'],
  result: 'found',
  events: [round],
};

const parse = (startups: unknown[]) => parseOutcomes({ startups }, OUTCOMES_FILE, TODAY);

describe('the shipped outcomes file (data/outcomes.yaml)', () => {
  test('it passes every check of the loader', async () => {
    await assert.doesNotReject(readOutcomes(OUTCOMES_FILE, new Date()));
  });

  test('every startup it lists is on the watchlist', async () => {
    const [outcomes, watchlist] = await Promise.all([readOutcomes(), readWatchlist(SHIPPED_WATCHLIST)]);
    const tracked = new Set(watchlist.map((e) => e.login.toLowerCase()));
    assert.deepEqual(
      outcomes.startups.map((s) => s.login).filter((login) => !tracked.has(login.toLowerCase())),
      [],
    );
  });

  test('its inclusion rule and search method are written at its top', async () => {
    const text = await readFile(OUTCOMES_FILE, 'utf8');
    const header = text.slice(0, text.indexOf('\nstartups:'));
    assert.match(header, /Inclusion rule/);
    assert.match(header, /Search method/);
    assert.match(header, /primary source/);
  });
});

describe('checking an outcomes document', () => {
  test('a complete entry with a sourced round is accepted', () => {
    const outcomes = parse([entry]);
    assert.equal(outcomes.byLogin.get('example')?.events[0]?.kind, 'Series A');
  });

  test('a day that does not exist is rejected, naming the field', () => {
    assert.throws(() => parse([{ ...entry, events: [{ ...round, announced: '2025-02-30' }] }]), /events\.0\.announced/);
  });

  test('an announcement after the search is rejected', () => {
    assert.throws(() => parse([{ ...entry, events: [{ ...round, announced: '2026-12-01' }] }]), /after the search/);
  });

  test('a search dated in the future is rejected', () => {
    assert.throws(() => parse([{ ...entry, searchedOn: '2026-12-02' }]), /in the future/);
  });

  test('an acquisition entered under another spelling is rejected', () => {
    assert.throws(() => parse([{ ...entry, events: [{ ...round, kind: 'Acquired by Example' }] }]), /acquisition/);
  });

  test('a source that is not https is rejected', () => {
    assert.throws(
      () => parse([{ ...entry, events: [{ ...round, source: 'http://example.com/a' }] }]),
      /events\.0\.source/,
    );
  });

  test('an unknown kind of source is rejected', () => {
    assert.throws(() => parse([{ ...entry, events: [{ ...round, sourceKind: 'press' }] }]), /sourceKind/);
  });

  test('the same round entered twice is rejected', () => {
    assert.throws(
      () => parse([{ ...entry, events: [round, { ...round, announced: '2025-03-05', kind: 'series a' }] }]),
      /entered twice/,
    );
  });

  test('a startup listed twice, in any case, is rejected', () => {
    assert.throws(() => parse([entry, { ...entry, login: 'Example' }]), /listed twice/);
  });

  test('a search without its queries is rejected', () => {
    assert.throws(() => parse([{ ...entry, searched: [] }]), /searched/);
  });

  test('a found search without events is rejected', () => {
    assert.throws(() => parse([{ ...entry, events: [] }]), /no event/);
  });

  test('a none-found search with events is rejected', () => {
    assert.throws(() => parse([{ ...entry, result: 'none-found' }]), /only a found search/);
  });

  test('an unknown field is rejected rather than ignored', () => {
    assert.throws(() => parse([{ ...entry, stage: 'Seed' }]), /stage|Unrecognized/);
  });
});

describe('the stage an announced round gives', () => {
  const cases: [string, string | undefined][] = [
    ['Pre-seed', 'Pre-seed'],
    ['Angel round', 'Pre-seed'],
    ['Seed', 'Seed'],
    ['Seed extension', 'Seed'],
    ['Seed+', 'Seed'],
    ['Series A', 'Series A/B'],
    ['Series B extension', 'Series A/B'],
    ['Series A+', 'Series A/B'],
    ['Series C', 'Growth'],
    ['Series F', 'Growth'],
    ['Growth round', 'Growth'],
    ['Strategic investment', undefined],
    ['Grant', undefined],
    ['acquisition', undefined],
  ];
  for (const [kind, stage] of cases) {
    test(`${kind} gives ${stage ?? 'no stage'}`, () => {
      assert.equal(stageOfRound(kind), stage);
    });
  }
});
