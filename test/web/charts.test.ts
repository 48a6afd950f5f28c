import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineChart, sparkline } from '../../src/web/charts.js';

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
    const ys = [...svg.matchAll(/<circle class="point" data-i="\d+" cx="[\d.]+" cy="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
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
});
