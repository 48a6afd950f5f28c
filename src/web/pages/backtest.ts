import { scaleLinear, scalePoint } from 'd3-scale';
import { area, line } from 'd3-shape';
import type { BacktestFigure, BacktestReport } from '../../schemas/backtest.js';
import { chartLegend } from '../charts.js';
import { html, type SafeHtml } from '../html.js';
import type { PageInput } from '../layout.js';

/**
 * The backtest page: the summary, a lift chart with its confidence band, every figure in a table, coverage and
 * limits; or, before any result exists, that none has been run and why, with no figure at all.
 */

type Computed = Extract<BacktestReport, { status: 'computed' }>;

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null) => (v === null ? '—' : v.toFixed(2));

/**
 * Lift against k for the composite ranking and the random control at one horizon, with the composite's 95% band
 * and the line of no lift. Drawn here rather than by lineChart, which has no band: the band is the point of it.
 */
interface Drawing {
  width: number;
  height: number;
  font: number;
  className: string;
}
const WIDE: Drawing = { width: 640, height: 280, font: 12, className: 'chart-wide' };
/** Phones get a drawing of their own, so its text stays readable (the stylesheet shows one of the two). */
const NARROW: Drawing = { width: 360, height: 280, font: 13, className: 'chart-narrow' };

function liftChart(figures: readonly BacktestFigure[], horizon: number, id: string, d: Drawing): SafeHtml {
  const of = (selection: string) =>
    figures.filter((f) => f.selection === selection && f.horizonWeeks === horizon && f.k !== null);
  const composite = of('composite');
  const random = of('random');
  const ks = composite.map((f) => String(f.k));
  const values = [...composite, ...random].flatMap((f) => [f.lift, f.liftInterval.low, f.liftInterval.high]);
  const max = Math.max(2, ...values.filter((v): v is number => v !== null));
  const { width, height, font } = d;
  const margin = { top: font * 2.5, right: 16, bottom: font * 3.5, left: font * 4 };
  // The legend takes a line per entry on a narrow drawing (above the plot), and is laid out by its text's width.
  const legend = chartLegend(
    [
      { text: 'Composite score (shaded: 95% interval)', className: 'series-a' },
      { text: 'Random ranking · dotted: no lift (1)', className: 'series-b' },
    ],
    { width, font, left: margin.left, stacked: width < 500 },
  );
  const x = scalePoint<string>()
    .domain(ks)
    .range([margin.left, width - margin.right])
    .padding(0.5);
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const banded = composite.filter((f) => f.liftInterval.low !== null && f.liftInterval.high !== null);
  const band = area<BacktestFigure>()
    .x((f) => x(String(f.k))!)
    .y0((f) => y(f.liftInterval.low!))
    .y1((f) => y(f.liftInterval.high!))(banded);
  const path = (list: BacktestFigure[]) =>
    line<BacktestFigure>()
      .defined((f) => f.lift !== null)
      .x((f) => x(String(f.k))!)
      .y((f) => y(f.lift ?? 0))(list) ?? '';
  const points = (list: BacktestFigure[], name: string) =>
    list
      .filter((f) => f.lift !== null)
      .map(
        (f) =>
          html`<circle class="point" cx="${x(String(f.k))!.toFixed(1)}" cy="${y(f.lift!).toFixed(1)}" r="3"
            ><title>
              ${name}, top ${f.k}: lift ${num(f.lift)} (95% ${num(f.liftInterval.low)}–${num(f.liftInterval.high)})
            </title></circle
          >`,
      );
  return html`<svg
    class="chart ${d.className}"
    role="img"
    aria-labelledby="${id}-title"
    viewBox="0 ${-legend.extra} ${width} ${height + legend.extra}"
    font-size="${font}"
  >
    <title id="${id}-title">
      Lift of the top k at ${horizon} weeks: composite score with its 95% band, and a random ranking
    </title>
    <g class="axis">
      <line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${height - margin.bottom}" />
      ${y
        .ticks(5)
        .map(
          (t) =>
            html`<text x="${margin.left - 6}" y="${y(t).toFixed(1)}" text-anchor="end" dominant-baseline="middle"
                >${t}</text
              ><line
                class="grid"
                x1="${margin.left}"
                x2="${width - margin.right}"
                y1="${y(t).toFixed(1)}"
                y2="${y(t).toFixed(1)}"
              />`,
        )}
    </g>
    <g class="axis x">
      <line
        x1="${margin.left}"
        x2="${width - margin.right}"
        y1="${height - margin.bottom}"
        y2="${height - margin.bottom}"
      />
      ${ks.map((k) => html`<text x="${x(k)!.toFixed(1)}" y="${height - margin.bottom + font * 1.5}" text-anchor="middle">top ${k}</text>`)}
    </g>
    <path class="band" d="${band ?? ''}" />
    <line
      class="baseline"
      x1="${margin.left}"
      x2="${width - margin.right}"
      y1="${y(1).toFixed(1)}"
      y2="${y(1).toFixed(1)}"
    />
    <g class="series series-a">
      <path d="${path(composite)}" />
      ${points(composite, 'Composite score')}
    </g>
    <g class="series series-b">
      <path d="${path(random)}" />
      ${points(random, 'Random ranking')}
    </g>
    ${legend.markup}
  </svg>`;
}

function figuresTable(figures: readonly BacktestFigure[]): SafeHtml {
  return html`<table class="stack">
    <thead>
      <tr>
        <th scope="col">Selection</th>
        <th scope="col">Top k</th>
        <th scope="col">Horizon</th>
        <th scope="col">Hits / selected</th>
        <th scope="col">Share</th>
        <th scope="col">Base rate</th>
        <th scope="col">Lift</th>
        <th scope="col">95% interval</th>
        <th scope="col">Events flagged</th>
        <th scope="col">Median lead</th>
      </tr>
    </thead>
    <tbody>
      ${figures.map(
        (f) =>
          html`<tr>
            <th scope="row">${f.selection}${f.role === 'control' ? ' (control)' : ''}</th>
            <td data-label="Top k">${f.k ?? 'all'}</td>
            <td data-label="Horizon">${f.horizonWeeks} weeks</td>
            <td data-label="Hits / selected">${f.hits} / ${f.selected}</td>
            <td data-label="Share">${pct(f.share)}</td>
            <td data-label="Base rate">${pct(f.baseRate)}</td>
            <td data-label="Lift">${num(f.lift)}</td>
            <td data-label="95% interval">${num(f.liftInterval.low)}–${num(f.liftInterval.high)}</td>
            <td data-label="Events flagged">${f.leadTimes.flagged} of ${f.leadTimes.events}</td>
            <td data-label="Median lead">
              ${f.leadTimes.quartilesDays ? `${f.leadTimes.quartilesDays[1]} days` : '—'}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function computedBody(report: Computed): SafeHtml {
  const { history, outcomes } = report.coverage;
  const all = report.spans.find((s) => s.name === 'all');
  return html`${
      report.synthetic
        ? html`<p class="notice">
            <strong>These figures are of synthetic demo data</strong>: fictional startups, with no real rounds behind
            them.
          </p>`
        : ''
    }
    <p class="lede">${report.summary}</p>
    ${report.method.horizonsWeeks.map(
      (h) =>
        html`<h2>Next ${h} weeks</h2>
          <div class="chart-box">
            ${liftChart(all?.figures ?? [], h, `lift-${h}-wide`, WIDE)}
            ${liftChart(all?.figures ?? [], h, `lift-${h}-narrow`, NARROW)}
          </div>`,
    )}
    <h2>Coverage</h2>
    <p>
      ${history.weeks} weeks (${history.firstWeek ?? '—'} to ${history.lastWeek ?? '—'}), ${history.startups} startups,
      from ${history.source}. Outcomes: ${outcomes.searched} startups searched (${outcomes.found} with a round or
      acquisition found, ${outcomes.noneFound} with none, ${outcomes.ambiguous} ambiguous), ${outcomes.notSearched} not
      searched, ${outcomes.events} events; ${outcomes.tested} startups tested. Bootstrap: ${report.method.bootstrap}
      (${report.method.replicates} replicates, seed ${report.method.seed}).
    </p>
    ${report.spans.map(
      (s) =>
        html`<h2>
            Every figure: ${s.name === 'all' ? 'all weeks' : `${s.name} span`} (${s.fromWeek ?? '—'} to
            ${s.toWeek ?? '—'})
          </h2>
          ${figuresTable(s.figures)}`,
    )}`;
}

export function backtestPage(report: BacktestReport): PageInput {
  const body = html`<h1>Does the signal come before funding?</h1>
    ${
      report.status === 'computed'
        ? computedBody(report)
        : html`<p class="lede"><strong>No backtest has been run on this data yet.</strong></p>
            <p>Why:</p>
            <ul>
              ${report.reasons.map((r) => html`<li>${r}</li>`)}
            </ul>
            <p>No figure is shown until a backtest has been computed: there are none to show.</p>`
    }
    <h2>How it is tested</h2>
    <p>
      For each stored week, only what was visible at the week's end: the startups are ranked by composite score, by each
      signal type and, as controls, by commits, by contributors and at random; the share of the top 10, 20 and 50 that
      announced a funding round or an acquisition in the next 13 and 26 weeks is compared with the share of all tracked
      startups that week (the lift), with 95% bootstrap intervals that resample startups, since weeks overlap. The
      method was fixed before the test ran on any history (${report.method.document} in the source) and the result is
      published whatever it is. Machine-readable: <a href="/api/v1/backtest.json">backtest.json</a>.
    </p>
    <h2>Limits</h2>
    <ul>
      ${report.limits.map((l) => html`<li>${l}</li>`)}
    </ul>`;
  return {
    path: '/backtest',
    title: 'Backtest against later funding',
    description: report.summary.slice(0, 300),
    body,
    synthetic: report.synthetic,
    section: 'research',
  };
}
