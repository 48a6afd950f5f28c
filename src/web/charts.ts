import { scaleLinear, scalePoint } from 'd3-scale';
import { line } from 'd3-shape';
import { formatInt } from './context.js';
import { html, type SafeHtml } from './html.js';
import { weekLabel } from './week-label.js';

/**
 * Charts as server-rendered SVG: no script, readable without colour (each series has its own dash and a legend), and
 * described for screen readers by a title and a data table the page prints beside the chart. `assets/chart.js`
 * enhances them: a shared read-out on pointing and with the keyboard, and the range switched without a reload.
 */

/** Figures as the tables print them: a count exactly as `formatInt` ("2,364"), anything else with one decimal at most. */
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
export const fmt = (n: number): string => (Number.isInteger(n) ? formatInt(n) : GROUPED.format(n));

/** A small inline line of the values, for table cells. `label` is the accessible description. */
export function sparkline(values: readonly number[], label: string, width = 96, height = 24): SafeHtml {
  if (values.length === 0) return html`<span class="muted">—</span>`;
  const max = Math.max(...values, 1);
  const x = scaleLinear()
    .domain([0, Math.max(values.length - 1, 1)])
    .range([2, width - 2]);
  const y = scaleLinear()
    .domain([0, max])
    .range([height - 2, 2]);
  const path = line<number>()
    .x((_, i) => x(i))
    .y((v) => y(v))(values as number[]);
  const last = values.length - 1;
  return html`<svg class="spark" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <title>${label}</title>
    <path d="${path ?? ''}" />
    <circle cx="${x(last).toFixed(1)}" cy="${y(values[last]!).toFixed(1)}" r="2" />
  </svg>`;
}

/**
 * One point with its tooltip (kept on one line: a chart has a few hundred). `data-v` is the value as the read-out
 * prints it; the point of the week the page shows carries `data-shown`.
 */
// prettier-ignore
const point = (i: number, cx: number, cy: number, value: string, title: string, marked: boolean) =>
  html`<circle class="point" data-i="${i}" data-v="${value}"${marked ? html` data-shown="true"` : ''} cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${marked ? 4.5 : 3}"><title>${title}</title></circle>`;

export interface Series {
  name: string;
  values: readonly number[];
  /** CSS class: colour and dash pattern. */
  className: string;
}

export interface ChartOptions {
  title: string;
  labels: readonly string[];
  series: readonly [Series, Series?];
  width?: number;
  height?: number;
  /** The id of the chart's title (unique on the page). */
  id?: string;
  /** Text size in the drawing's units (12 by default). */
  fontSize?: number;
  /** At most this many labels on the x axis (8 by default). */
  maxTicks?: number;
  /** Both series on one left axis (two startups' commits overlaid) instead of an axis each. */
  sharedAxis?: boolean;
  /** Extra class on the <svg> element. */
  className?: string;
  /** The index of the label of the week the page shows: marked by a line and "shown" (none when -1 or absent). */
  marked?: number;
  /**
   * Each label as a person reads it ("Week 48, 2026 (23–29 Nov)"), for the points' titles and the read-out; the
   * labels themselves when absent.
   */
  names?: readonly string[];
}

/**
 * The width of a line of text in Inter at `font` units, estimated from its characters (Inter's advance widths rounded
 * up by class), so a legend can be laid out on the server: never narrower than the browser draws it.
 */
export function textWidth(text: string, font: number): number {
  let em = 0;
  for (const c of text) {
    if (/[\s.,:;'|!()[\]ijlt·-]/.test(c)) em += 0.34;
    else if (/[mwMW@%]/.test(c)) em += 0.92;
    else if (/[A-Z]/.test(c)) em += 0.72;
    else if (/[0-9]/.test(c)) em += 0.62;
    else em += 0.6;
  }
  return em * font;
}

export interface LegendEntry {
  text: string;
  /** The series' class: its colour and its dash, as on the chart. */
  className: string;
}

/** A legend line: the series' sample (colour and dash), a gap, the text. */
const SAMPLE = 30;
/** Between two entries of one row. */
const GAP = 24;

/**
 * A chart's legend: each entry its series' sample and its text, side by side in one row above the plot when they fit
 * the drawing's width (from `left`), else one entry a row above the drawing (`extra` units are added on top for the
 * rows); a text longer than the drawing is cut with "…", the whole of it kept as the entry's tooltip. So no legend text
 * is clipped by the drawing's edge or drawn over another, whatever a startup is called.
 */
export function chartLegend(
  entries: readonly LegendEntry[],
  d: { width: number; font: number; left: number; stacked?: boolean },
): { markup: SafeHtml; extra: number } {
  const room = d.width - 4 - SAMPLE - 4;
  const fitted = entries.map((e) => {
    if (textWidth(e.text, d.font) <= room) return { ...e, whole: e.text, cut: false };
    let text = e.text;
    while (text.length > 1 && textWidth(`${text}…`, d.font) > room) text = text.slice(0, -1);
    return { ...e, text: `${text.trimEnd()}…`, whole: e.text, cut: true };
  });
  const widths = fitted.map((e) => SAMPLE + textWidth(e.text, d.font));
  const oneRow =
    !d.stacked && d.left + widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1) <= d.width - 4;
  const rowHeight = Math.round(d.font * 1.4);
  const extra = oneRow ? 0 : Math.round(fitted.length * d.font * 1.4);
  let at = d.left;
  const markup = fitted.map((e, i) => {
    const [tx, ty] = oneRow ? [at, d.font] : [4, Math.round(-extra + d.font * 0.8 + i * rowHeight)];
    at += widths[i]! + GAP;
    return html`<g class="legend ${e.className}" transform="translate(${Math.round(tx)},${ty})"
      >${e.cut ? html`<title>${e.whole}</title>` : ''}<line x1="0" x2="24" y1="0" y2="0" /><text
        x="${SAMPLE}"
        y="0"
        dominant-baseline="middle"
        >${e.text}</text
      ></g
    >`;
  });
  return { markup: html`${markup}`, extra };
}

/**
 * A full chart with axes, ticks, a legend and one marker per point (each with a tooltip). Two series get an axis each
 * (left for the first, right for the second), so commits and contributors stay readable on one chart, unless
 * `sharedAxis` puts both on the left one (the same quantity of two startups).
 */
export function lineChart(options: ChartOptions): SafeHtml {
  const width = options.width ?? 720;
  const height = options.height ?? 300;
  const font = options.fontSize ?? 12;
  const id = options.id ?? 'chart';
  const shared = options.sharedAxis === true;
  // Margins grow with the text so tick labels are never clipped.
  const side = Math.round((font * 14) / 3);
  const margin = { top: Math.round((font * 7) / 3), right: shared ? 16 : side, bottom: font * 4, left: side };
  // Points by index, not by label: a history longer than a year has two "W01".
  const position = scalePoint<number>()
    .domain(options.labels.map((_, i) => i))
    .range([margin.left, width - margin.right])
    .padding(0.3);
  const x = (i: number): number => position(i)!;
  const axes: SafeHtml[] = [];
  const lines: SafeHtml[] = [];
  const present = options.series.filter((s): s is Series => Boolean(s));
  const sharedMax = Math.max(...present.flatMap((s) => s.values), 1);
  const names = options.names ?? options.labels;
  const at = options.marked ?? -1;
  options.series.forEach((series, index) => {
    if (!series) return;
    const y = scaleLinear()
      .domain([0, shared ? sharedMax : Math.max(...series.values, 1)])
      .nice()
      .range([height - margin.bottom, margin.top]);
    if (index === 0 || !shared) {
      const edge = index === 0 ? margin.left : width - margin.right;
      const anchor = index === 0 ? 'end' : 'start';
      const offset = index === 0 ? -6 : 6;
      // A count is never drawn at 2.5: ticks of whole-number series are whole numbers.
      const whole = (shared ? present : [series]).every((s) => s.values.every(Number.isInteger));
      const ticks = y.ticks(5).filter((t) => !whole || Number.isInteger(t));
      axes.push(
        html`<g class="axis ${shared ? '' : series.className}"
          ><line x1="${edge}" x2="${edge}" y1="${margin.top}" y2="${height - margin.bottom}" />${ticks.map(
            (t) =>
              html`<text x="${edge + offset}" y="${y(t).toFixed(1)}" text-anchor="${anchor}" dominant-baseline="middle"
                  >${fmt(t)}</text
                >${
                  index === 0
                    ? html`<line
                        class="grid"
                        x1="${margin.left}"
                        x2="${width - margin.right}"
                        y1="${y(t).toFixed(1)}"
                        y2="${y(t).toFixed(1)}"
                      />`
                    : ''
                }`,
          )}</g
        >`,
      );
    }
    const path = line<number>()
      .x((_, i) => x(i))
      .y((v) => y(v))(series.values as number[]);
    lines.push(
      html`<g class="series ${series.className}" data-name="${series.name}"
        ><path d="${path ?? ''}" />${series.values.map((v, i) =>
          point(i, x(i), y(v), fmt(v), `${names[i]}: ${series.name} ${fmt(v)}`, i === at),
        )}</g
      >`,
    );
  });
  // Label at most `maxTicks` periods, counted back from the newest so the last week is always labelled and never
  // crowded.
  const every = Math.max(1, Math.ceil(options.labels.length / (options.maxTicks ?? 8)));
  const last = options.labels.length - 1;
  const xTicks = options.labels.map((label, i) =>
    (last - i) % every === 0
      ? html`<text x="${x(i).toFixed(1)}" y="${height - margin.bottom + font * 1.5}" text-anchor="middle"
          >${label}</text
        >`
      : '',
  );
  // The legend: one entry per line when the drawing is narrow, side by side otherwise, each entry as wide as its text.
  const legend = chartLegend(
    options.series.flatMap((s, i) =>
      s
        ? [{ text: `${s.name}${shared ? '' : i === 0 ? ' (left axis)' : ' (right axis)'}`, className: s.className }]
        : [],
    ),
    { width, font, left: margin.left, stacked: width < 500 && present.length > 1 },
  );
  const extra = legend.extra;
  const markLabel = at >= 0 ? options.labels[at] : undefined;
  const markX = at >= 0 ? x(at).toFixed(1) : '';
  // Beside its line, on the side with room: left of it in the right half of the chart, right of it otherwise.
  const right = at >= 0 && x(at) > width / 2;
  const mark =
    markLabel === undefined
      ? ''
      : html`<g class="mark" data-marked="${markLabel}"
          ><line x1="${markX}" x2="${markX}" y1="${margin.top}" y2="${height - margin.bottom}" /><text
            x="${(x(at) + (right ? -font / 2 : font / 2)).toFixed(1)}"
            y="${margin.top + font}"
            text-anchor="${right ? 'end' : 'start'}"
            >${markLabel} shown</text
          ></g
        >`;
  return html`<svg
    class="chart ${options.className ?? ''}"
    role="img"
    aria-labelledby="${id}-title"
    viewBox="0 ${-extra} ${width} ${height + extra}"
    font-size="${font}"
    data-chart
    data-names="${names.join('|')}"
  >
    <title id="${id}-title">${options.title}</title>
    ${legend.markup}${axes}
    <g class="axis x">
      <line
        x1="${margin.left}"
        x2="${width - margin.right}"
        y1="${height - margin.bottom}"
        y2="${height - margin.bottom}"
      />
      ${xTicks}
    </g>
    <line class="guide" x1="0" x2="0" y1="${margin.top}" y2="${height - margin.bottom}" visibility="hidden" />
    ${lines}${mark}
  </svg>`;
}

/**
 * The chart twice: a wide drawing for large screens and a narrow one for phones (the stylesheet shows one), so its
 * text is at least 11 CSS px wherever it is read. The hidden one is `display: none`, out of the accessibility tree.
 */
export function responsiveChart(options: Omit<ChartOptions, 'width' | 'height' | 'fontSize' | 'className'>): SafeHtml {
  const id = options.id ?? 'chart';
  return html`<div class="chart-box">
    ${lineChart({ ...options, id: `${id}-wide`, className: 'chart-wide' })}
    ${lineChart({
      ...options,
      id: `${id}-narrow`,
      width: 360,
      height: 260,
      fontSize: 13,
      maxTicks: 4,
      className: 'chart-narrow',
    })}
  </div>`;
}

/** The time ranges a history chart offers: the latest 13 or 26 weeks, or every stored week (the default). */
export const CHART_RANGES = ['13', '26', 'all'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const DEFAULT_RANGE: ChartRange = 'all';

/** `?range=` as given: one of the ranges; anything else, or nothing, is the default. */
export function parseRange(value: unknown): ChartRange {
  return (CHART_RANGES as readonly unknown[]).includes(value) ? (value as ChartRange) : DEFAULT_RANGE;
}

/**
 * The weeks `[start, end)` a range shows of `count` stored weeks: the latest ones, or, when the page shows a week
 * older than those (`shown`, an index), the weeks up to and including it (the first ones when fewer came before it), so
 * the shown week is always on the chart.
 */
export function rangeWindow(count: number, range: ChartRange, shown = -1): { start: number; end: number } {
  const n = range === 'all' ? count : Math.min(count, Number(range));
  const end = shown >= 0 && shown < count - n ? Math.max(shown + 1, n) : count;
  return { start: Math.max(0, end - n), end };
}

/**
 * The range control: a link per range that shows fewer weeks than are stored, and "All N weeks" (nothing when every
 * range would show the same weeks). Plain links, so it works without script; `assets/chart.js` follows them without a
 * reload.
 */
export function rangeControl(id: string, count: number, range: ChartRange, href: (r: ChartRange) => string): SafeHtml {
  const offered = CHART_RANGES.filter((r) => r === 'all' || Number(r) < count);
  if (offered.length < 2) return html``;
  const current = range === 'all' || Number(range) >= count ? 'all' : range;
  return html`<p class="range" role="group" aria-labelledby="${id}-range-label">
    <span id="${id}-range-label">Weeks on the chart:</span>
    ${offered.map(
      (r) =>
        html`<a href="${href(r)}" data-range="${r}" ${r === current ? html`aria-current="true"` : ''}
          >${r === 'all' ? `All ${count}` : r} weeks</a
        >`,
    )}
  </p>`;
}

export interface HistoryChartOptions {
  /** The chart's id (unique on the page); its box is `{id}-box`. */
  id: string;
  /** What is charted ("Acme: commits per 14 days and contributors"); the title adds the weeks it covers. */
  subject: string;
  /** The stored weeks' slugs, oldest first, one per value of each series. */
  periods: readonly string[];
  series: readonly [Series, Series?];
  /** The slug of the week the page shows: marked on the chart, and always inside the range. */
  shown: string;
  range: ChartRange;
  /** The page's URL showing a range (with its other parameters and the chart's anchor). */
  href: (range: ChartRange) => string;
  /** A sentence the caption starts with. */
  note: string;
  /** More of the section (the figures as a table), swapped with the chart when the range changes. */
  after?: SafeHtml;
  /** Both series on the left axis (the same quantity of two startups). */
  sharedAxis?: boolean;
}

/** "W48" of "2026-w48": the x axis's label of a week. */
export const shortWeek = (slug: string): string => slug.replace(/^\d{4}-w/, 'W');

/**
 * A stored history as a chart with its range control, the shown week marked: the box `assets/chart.js` replaces with
 * the same box of the page for another range.
 */
export function historyChart(options: HistoryChartOptions): SafeHtml {
  const { periods, id } = options;
  const shown = periods.indexOf(options.shown);
  const { start, end } = rangeWindow(periods.length, options.range, shown);
  const weeks = periods.slice(start, end);
  const [a, b] = options.series;
  const part = (s: Series): Series => ({ ...s, values: s.values.slice(start, end) });
  // "Week 36, 2026 to Week 48, 2026": the weeks' names without their days.
  const name = (slug: string) => weekLabel(slug).replace(/ \(.*\)$/, '');
  const span = `${name(weeks[0]!)} to ${name(weeks.at(-1)!)}`;
  const which =
    weeks.length === periods.length ? 'Every stored week' : `${weeks.length} of the ${periods.length} stored weeks`;
  return html`<div class="history-box" id="${id}-box" data-range-box>
    ${rangeControl(id, periods.length, options.range, options.href)}
    <figure>
      ${responsiveChart({
        id,
        title: `${options.subject}, ${weeks.length} weeks (${span})`,
        labels: weeks.map(shortWeek),
        names: weeks.map(weekLabel),
        marked: shown >= 0 ? shown - start : -1,
        series: b ? [part(a), part(b)] : [part(a)],
        ...(options.sharedAxis ? { sharedAxis: true } : {}),
      })}
      <figcaption class="muted">
        ${options.note} ${which} (${span})${shown >= 0 ? `; ${name(periods[shown]!)} is marked` : ''}. Point at the
        chart, or focus it and use ← and →, to read a week's figures.
      </figcaption>
    </figure>
    ${options.after ?? ''}
  </div>`;
}
