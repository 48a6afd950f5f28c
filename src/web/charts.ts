import { scaleLinear, scalePoint } from 'd3-scale';
import { line } from 'd3-shape';
import { html, type SafeHtml } from './html.js';

/**
 * Charts as server-rendered SVG: no script, readable without colour (each series has its own dash and a legend), and
 * described for screen readers by a title and a data table the page prints beside the chart.
 */

/** Figures as the tables print them: digits grouped ("2,364"), one decimal at most. */
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
export const fmt = (n: number): string => GROUPED.format(n);

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

/** One marked point with its tooltip (kept on one line: a chart has a few hundred). */
// prettier-ignore
const point = (i: number, cx: number, cy: number, title: string) =>
  html`<circle class="point" data-i="${i}" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="3"><title>${title}</title></circle>`;

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
  const x = scalePoint<string>()
    .domain(options.labels as string[])
    .range([margin.left, width - margin.right])
    .padding(0.3);
  const axes: SafeHtml[] = [];
  const lines: SafeHtml[] = [];
  const present = options.series.filter((s): s is Series => Boolean(s));
  const sharedMax = Math.max(...present.flatMap((s) => s.values), 1);
  options.series.forEach((series, index) => {
    if (!series) return;
    const y = scaleLinear()
      .domain([0, shared ? sharedMax : Math.max(...series.values, 1)])
      .nice()
      .range([height - margin.bottom, margin.top]);
    if (index === 0 || !shared) {
      const at = index === 0 ? margin.left : width - margin.right;
      const anchor = index === 0 ? 'end' : 'start';
      const offset = index === 0 ? -6 : 6;
      axes.push(
        html`<g class="axis ${shared ? '' : series.className}"
          ><line x1="${at}" x2="${at}" y1="${margin.top}" y2="${height - margin.bottom}" />${y
            .ticks(5)
            .map(
              (t) =>
                html`<text x="${at + offset}" y="${y(t).toFixed(1)}" text-anchor="${anchor}" dominant-baseline="middle"
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
      .x((_, i) => x(options.labels[i]!)!)
      .y((v) => y(v))(series.values as number[]);
    lines.push(
      html`<g class="series ${series.className}"
        ><path d="${path ?? ''}" />${series.values.map((v, i) =>
          point(i, x(options.labels[i]!)!, y(v), `${options.labels[i]}: ${fmt(v)} ${series.name}`),
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
      ? html`<text x="${x(label)!.toFixed(1)}" y="${height - margin.bottom + font * 1.5}" text-anchor="middle"
          >${label}</text
        >`
      : '',
  );
  // The legend: one entry per line when the drawing is narrow, side by side otherwise.
  const stacked = width < 500 && present.length > 1;
  const extra = stacked ? Math.round(present.length * font * 1.4) : 0;
  const legend = options.series.map((s, i) =>
    s
      ? html`<g
          class="legend ${s.className}"
          transform="translate(${stacked ? 4 : margin.left + i * 220},${stacked ? Math.round(-extra + font * 0.8 + i * font * 1.4) : font})"
          ><line x1="0" x2="24" y1="0" y2="0" /><text x="30" y="0" dominant-baseline="middle"
            >${s.name}${shared ? '' : i === 0 ? ' (left axis)' : ' (right axis)'}</text
          ></g
        >`
      : '',
  );
  const at = options.marked ?? -1;
  const markLabel = at >= 0 ? options.labels[at] : undefined;
  const mark =
    markLabel === undefined
      ? ''
      : html`<g class="mark" data-marked="${markLabel}"
          ><line
            x1="${x(markLabel)!.toFixed(1)}"
            x2="${x(markLabel)!.toFixed(1)}"
            y1="${margin.top}"
            y2="${height - margin.bottom}"
          /><text
            x="${x(markLabel)!.toFixed(1)}"
            y="${margin.top + font}"
            text-anchor="${at === options.labels.length - 1 ? 'end' : at === 0 ? 'start' : 'middle'}"
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
  >
    <title id="${id}-title">${options.title}</title>
    ${legend}${axes}
    <g class="axis x">
      <line
        x1="${margin.left}"
        x2="${width - margin.right}"
        y1="${height - margin.bottom}"
        y2="${height - margin.bottom}"
      />
      ${xTicks}
    </g>
    ${mark}${lines}
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
