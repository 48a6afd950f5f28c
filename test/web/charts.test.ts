import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fmt,
  historyChart,
  lineChart,
  parseRange,
  rangeWindow,
  sparkline,
  type ChartRange,
} from '../../src/web/charts.js';
import { formatInt } from '../../src/web/context.js';

describe('charts', () => {
  test('a line chart draws one marker per value of each series', () => {
    const svg = lineChart({
      title: 'Acme',
      labels: ['W1', 'W2', 'W3', 'W4'],
      series: [
        { name: 'Commits', values: [10, 20, 15, 40], className: 'series-a' },
        { name: 'Contributors', values: [2, 3, 3, 5], className: 'series-b' },
      ],
    }).value;
    assert.equal(svg.match(/<circle class="point"/g)?.length, 8);
    assert.match(svg, /<title id="chart-title">Acme<\/title>/);
    assert.match(svg, /Commits \(left axis\)/);
    assert.match(svg, /Contributors \(right axis\)/);
  });

  test('the highest value sits at the top of the plot and zero at the bottom', () => {
    const svg = lineChart({
      title: 't',
      labels: ['a', 'b'],
      series: [{ name: 's', values: [0, 100], className: 'series-a' }],
      height: 300,
    }).value;
    const ys = [...svg.matchAll(/<circle class="point" data-i="\d+" data-v="[^"]*" cx="[\d.]+" cy="([\d.]+)"/g)].map(
      (m) => Number(m[1]),
    );
    // margin.top is 28 and margin.bottom 48: 100 (a nice tick) maps to 28, 0 to 300 - 48.
    assert.deepEqual(ys, [252, 28]);
  });

  test('the newest label is always on the x axis', () => {
    const labels = Array.from({ length: 30 }, (_, i) => `W${i + 1}`);
    const svg = lineChart({
      title: 't',
      labels,
      series: [{ name: 's', values: labels.map((_, i) => i), className: 'a' }],
    }).value;
    assert.match(svg, />\s*W30\s*<\/text\s*>/);
    assert.doesNotMatch(svg, />\s*W29\s*<\/text\s*>/);
  });

  test('labels are escaped', () => {
    const svg = lineChart({
      title: '<x>',
      labels: ['<a>'],
      series: [{ name: '"n"', values: [1], className: 'series-a' }],
    }).value;
    assert.doesNotMatch(svg, /<x>|<a>/);
    assert.match(svg, /&#60;x&#62;/);
  });

  test('a sparkline has an accessible title and ends on a dot at the last value', () => {
    const svg = sparkline([1, 5, 3], 'Commits of <Acme>').value;
    assert.match(svg, /role="img"/);
    assert.match(svg, /<title>Commits of &#60;Acme&#62;<\/title>/);
    assert.match(svg, /<circle cx="94.0"/);
  });

  test('an empty sparkline is a dash, not an empty drawing', () => {
    assert.doesNotMatch(sparkline([], 'x').value, /<svg/);
  });

  test('an unknown or missing range is the default, every week', () => {
    assert.equal(parseRange(undefined), 'all');
    assert.equal(parseRange('12'), 'all');
    assert.equal(parseRange('13'), '13');
    assert.equal(parseRange('26'), '26');
  });

  test('a range shows the latest weeks, or the weeks up to an older shown week', () => {
    assert.deepEqual(rangeWindow(30, '13'), { start: 17, end: 30 });
    assert.deepEqual(rangeWindow(30, '13', 29), { start: 17, end: 30 });
    assert.deepEqual(rangeWindow(30, '13', 17), { start: 17, end: 30 });
    assert.deepEqual(rangeWindow(30, '13', 15), { start: 3, end: 16 });
    assert.deepEqual(rangeWindow(30, '13', 5), { start: 0, end: 13 });
    assert.deepEqual(rangeWindow(30, '26', 10), { start: 4, end: 30 });
    assert.deepEqual(rangeWindow(30, '26', 2), { start: 0, end: 26 });
    assert.deepEqual(rangeWindow(10, '26'), { start: 0, end: 10 });
    assert.deepEqual(rangeWindow(30, 'all', 3), { start: 0, end: 30 });
  });

  const weeks = Array.from({ length: 30 }, (_, i) => `2026-w${String(i + 19).padStart(2, '0')}`);
  const history = (range: ChartRange, shown = weeks.at(-1)!) =>
    historyChart({
      id: 'h',
      subject: 'Acme',
      periods: weeks,
      shown,
      range,
      href: (r) => `/startups/acme?period=2026-w20&range=${r}#history`,
      series: [
        { name: 'Commits (14d)', values: weeks.map((_, i) => 1000 + i * 100), className: 'series-a' },
        { name: 'Contributors', values: weeks.map((_, i) => i % 4), className: 'series-b' },
      ],
      note: 'One point per stored week.',
    }).value;
  const wide = (svg: string) => svg.slice(svg.indexOf('chart-wide'), svg.indexOf('chart-narrow'));
  const pointsOf = (svg: string) =>
    wide(svg)
      .match(/<g class="series series-a"[\s\S]*?<\/g/)![0]
      .match(/<circle /g)!.length;

  test('a history chart draws the weeks of its range: 13, 26 or every stored week', () => {
    assert.equal(pointsOf(history('13')), 13);
    assert.equal(pointsOf(history('26')), 26);
    assert.equal(pointsOf(history('all')), 30);
    assert.match(history('13'), /13 of the 30 stored weeks \(Week 36, 2026 to Week 48, 2026\)/);
  });

  test('the range control links every range, the chosen one marked current', () => {
    const svg = history('26');
    const links = [...svg.matchAll(/<a href="([^"]+)" data-range="(\w+)"\s*(aria-current="true")?/g)];
    assert.deepEqual(
      links.map((m) => [m[2], Boolean(m[3])]),
      [
        ['13', false],
        ['26', true],
        ['all', false],
      ],
    );
    assert.match(svg, />All 30 weeks</);
    assert.equal(links[0]![1], '/startups/acme?period=2026-w20&#38;range=13#history');
  });

  test('no range control when there are no more weeks than the shortest range', () => {
    const svg = historyChart({
      id: 'h',
      subject: 'Acme',
      periods: weeks.slice(0, 13),
      shown: weeks[12]!,
      range: '13',
      href: () => '/',
      series: [{ name: 'Commits', values: weeks.slice(0, 13).map(() => 1), className: 'series-a' }],
      note: '',
    }).value;
    assert.doesNotMatch(svg, /data-range=/);
  });

  test('the shown week is marked, with its points, even when older than the range', () => {
    const svg = wide(history('13', '2026-w34'));
    assert.match(svg, /<g class="mark" data-marked="W34"/);
    assert.match(svg, />W34 shown</);
    // The range ends at the shown week: the 13 weeks W22 to W34.
    assert.equal(pointsOf(svg), 13);
    assert.match(svg, /<title>Week 22, 2026 [^<]*: Commits/);
    assert.equal(svg.match(/data-shown="true"/g)?.length, 2);
    assert.match(svg, /<circle class="point" data-i="12" data-v="[^"]+" data-shown="true"/);
  });

  test('the latest week is marked when the page shows it', () => {
    const svg = wide(history('all'));
    assert.match(svg, /<g class="mark" data-marked="W48"/);
    assert.match(svg, /<circle class="point" data-i="29" data-v="3,900" data-shown="true"/);
  });

  test('figures are formatted as the tables print them: axes, titles and read-out values grouped', () => {
    for (const n of [0, 7, 999, 2364, 1234567]) assert.equal(fmt(n), formatInt(n));
    const svg = wide(history('all'));
    assert.match(svg, /data-v="3,900"/);
    assert.match(svg, /<title>Week 48, 2026 \(23–29 Nov\): Commits \(14d\) 3,900<\/title>/);
    const ticks = [...svg.matchAll(/dominant-baseline="middle"\s*>([^<]+)<\/text/g)].map((m) => m[1]!.trim());
    assert.ok(ticks.includes('4,000'), ticks.join(' '));
    for (const t of ticks) assert.doesNotMatch(t, /^\d{4,}/);
  });

  test('a count is never drawn at a fractional tick', () => {
    const svg = lineChart({
      title: 't',
      labels: ['a', 'b', 'c'],
      series: [{ name: 'Contributors', values: [0, 1, 2], className: 'series-a' }],
    }).value;
    const ticks = [...svg.matchAll(/dominant-baseline="middle"\s*>([^<]+)<\/text/g)].map((m) => m[1]!.trim());
    assert.deepEqual(
      ticks.filter((t) => /^[\d,.]+$/.test(t)),
      ['0', '1', '2'],
    );
  });

  test('each point has an accessible title naming the week, the series and the value, and the read-out its names', () => {
    const svg = wide(history('13'));
    assert.match(svg, /data-names="Week 36, 2026 \(31 Aug – 6 Sep\)\|Week 37/);
    assert.match(svg, /<g class="series series-b" data-name="Contributors"/);
    assert.match(svg, /<title>Week 36, 2026 \(31 Aug – 6 Sep\): Contributors 1<\/title>/);
    assert.match(svg, /<line\s+class="guide"[^>]*visibility="hidden"/);
  });

  test('a history longer than a year keeps every week apart on the x axis', () => {
    const labels = Array.from({ length: 60 }, (_, i) => `W${String((i % 52) + 1).padStart(2, '0')}`);
    const svg = lineChart({
      title: 't',
      labels,
      series: [{ name: 's', values: labels.map((_, i) => i), className: 'series-a' }],
    }).value;
    const xs = [...svg.matchAll(/<circle class="point" data-i="\d+" data-v="[^"]*" cx="([\d.]+)"/g)].map((m) => m[1]);
    assert.equal(new Set(xs).size, 60);
  });
});
