import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCompanies } from '../../../src/core/scout/companies.js';
import { personalitySummary, rankFor, scoreStars, type Star } from '../../../src/core/scout/score.js';

const source = 'https://en.wikipedia.org/wiki/Example';
const list = parseCompanies(
  [
    {
      company: 'Ipo Co',
      org: 'ipo-co',
      repository: 'main',
      milestone: 'ipo',
      date: '2021-12-09',
      detail: 'IPO',
      source,
    },
    {
      company: 'Acq Co',
      org: 'acq-co',
      repository: 'main',
      milestone: 'acquisition',
      date: '2020-03-16',
      detail: 'Acquired',
      source,
    },
    {
      company: 'Round Co',
      org: 'round-co',
      repository: 'main',
      milestone: 'priced-round',
      date: '2023-08-24',
      detail: 'Series D',
      source,
    },
    {
      company: 'Late Co',
      org: 'late-co',
      repository: 'main',
      milestone: 'ipo',
      date: '2021-10-14',
      detail: 'IPO',
      source,
    },
  ],
  'fixture',
);

const star = (repo: string, at: string, language: string | null = null, topics: string[] = []): Star => {
  const [owner, name] = repo.split('/') as [string, string];
  return { owner, name, at, language, topics };
};

describe('scoreStars', () => {
  test('no stars: score 0, rank curious', () => {
    const result = scoreStars([], list);
    assert.deepEqual([result.score, result.rank, result.points, result.calls.length], [0, 'curious', 0, 0]);
  });

  test('three early calls score as computed by hand', () => {
    const result = scoreStars(
      [
        // 2018-12-10 → 2021-12-09 is 1095 days = 3 years (cap): 10 × 1 × (1 + 3) = 40
        star('ipo-co/main', '2018-12-10T00:00:00Z'),
        // a later star on the same organisation does not count again
        star('ipo-co/other', '2020-01-01T00:00:00Z'),
        // 2019-03-17 → 2020-03-16 is 365 days (2020 is a leap year) = 1 year: 10 × 0.8 × (1 + 1) = 16
        star('ACQ-CO/main', '2019-03-17T00:00:00Z'),
        // 2023-06-25T12:00 → 2023-08-24 is 59.5 days, floored to 59: 10 × 0.6 × (1 + 59/365) = 6.9699 → 6.97
        star('round-co/main', '2023-06-25T12:00:00Z'),
        // 13 days before the milestone: under the 30-day minimum, a late star
        star('late-co/main', '2021-10-01T00:00:00Z'),
        star('someone/else', '2015-01-01T00:00:00Z'),
      ],
      list,
    );
    // points 40 + 16 + 6.97 = 62.97; score = round(100 × 62.97 / 162.97) = round(38.639) = 39 → sharp (35–59)
    assert.equal(result.points, 62.97);
    assert.equal(result.score, 39);
    assert.equal(result.rank, 'sharp');
    assert.deepEqual(
      result.calls.map((c) => [c.company, c.leadDays, c.points, c.repository]),
      [
        ['Ipo Co', 1095, 40, 'ipo-co/main'],
        ['Acq Co', 365, 16, 'ACQ-CO/main'],
        ['Round Co', 59, 6.97, 'round-co/main'],
      ],
    );
    assert.equal(result.lateStars, 1);
  });

  test('a star after the milestone earns nothing', () => {
    const result = scoreStars([star('ipo-co/main', '2022-01-01T00:00:00Z')], list);
    assert.deepEqual([result.score, result.lateStars, result.calls.length], [0, 1, 0]);
  });

  test('exactly 30 days of lead is an early call; 29 is not', () => {
    // 2021-11-09 → 2021-12-09: 30 days: 10 × (1 + 30/365) = 10.8219 → 10.82; score round(1082/110.82) = 10 → scout
    const thirty = scoreStars([star('ipo-co/main', '2021-11-09T00:00:00Z')], list);
    assert.deepEqual([thirty.points, thirty.score, thirty.rank], [10.82, 10, 'scout']);
    const twentyNine = scoreStars([star('ipo-co/main', '2021-11-10T00:00:00Z')], list);
    assert.equal(twentyNine.calls.length, 0);
  });

  test('rank thresholds: 9 curious, 10 scout, 35 sharp, 60 elite, 80 oracle', () => {
    assert.deepEqual([0, 9, 10, 34, 35, 59, 60, 79, 80, 100].map(rankFor), [
      'curious',
      'curious',
      'scout',
      'scout',
      'sharp',
      'sharp',
      'elite',
      'elite',
      'oracle',
      'oracle',
    ]);
  });
});

describe('personalitySummary', () => {
  test('names the archetype, the calls, the leaning and the favourite languages from the data', () => {
    const stars = [
      star('ipo-co/main', '2018-12-10T00:00:00Z', 'Go', ['database']),
      star('acq-co/main', '2019-03-17T00:00:00Z', 'Go', ['database']),
      star('x/y', '2019-03-18T00:00:00Z', 'Rust', []),
    ];
    const text = personalitySummary(stars, scoreStars(stars, list));
    // average lead (1095 + 365) / 2 / 365 = 2.0 years → deep-early spotter
    assert.match(text, /^Deep-early spotter: 2 early calls on validated companies, on average 2\.0 years/);
    assert.match(text, /Best call: Ipo Co\./);
    assert.match(text, /Stars mostly Go and Rust projects, with a soft spot for database\./);
  });

  test('without early calls the user is an explorer', () => {
    const stars = [star('late-co/main', '2021-10-01T00:00:00Z', 'Ruby')];
    assert.match(
      personalitySummary(stars, scoreStars(stars, list)),
      /^Explorer: 1 star and no early call.*1 validated company was starred only once the news was out/,
    );
  });
});
