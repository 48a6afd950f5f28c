import { scaleLinear, scalePoint } from 'd3-scale';
import { line } from 'd3-shape';
import { html, type SafeHtml } from './html.js';

/**
 * Charts as server-rendered SVG: no script, readable without colour (each series has its own dash and a legend), and
 * described for screen readers by a title and a data table the page prints beside the chart.
 */

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

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

export interface Series {
  name: string;
  values: readonly number[];
  /** CSS class: colour and dash pattern. */
  className: string;
}

/**
 * A full chart with axes, ticks, a legend and one marker per point (each with a tooltip). Two series get an axis each
 * (left for the first, right for the second), so commits and contributors stay readable on one chart.
 */
export function lineChart(options: {
  title: string;
  labels: readonly string[];
  series: readonly [Series, Series?];
  width?: number;
  height?: number;
}): SafeHtml {
  const width = options.width ?? 720;
  const height = options.height ?? 300;
  const margin = { top: 28, right: 56, bottom: 48, left: 56 };
  const x = scalePoint<string>()
    .domain(options.labels as string[])
    .range([margin.left, width - margin.right])
    .padding(0.3);
  const axes: SafeHtml[] = [];
  const lines: SafeHtml[] = [];
  options.series.forEach((series, index) => {
    if (!series) return;
    const y = scaleLinear()
      .domain([0, Math.max(...series.values, 1)])
      .nice()
      .range([height - margin.bottom, margin.top]);
    const side = index === 0 ? margin.left : width - margin.right;
    const anchor = index === 0 ? 'end' : 'start';
    const offset = index === 0 ? -6 : 6;
    axes.push(
      html`<g class="axis ${series.className}"
        ><line x1="${side}" x2="${side}" y1="${margin.top}" y2="${height - margin.bottom}" />${y
          .ticks(5)
          .map(
            (t) =>
              html`<text x="${side + offset}" y="${y(t).toFixed(1)}" text-anchor="${anchor}" dominant-baseline="middle"
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
    const path = line<number>()
      .x((_, i) => x(options.labels[i]!)!)
      .y((v) => y(v))(series.values as number[]);
    lines.push(
      html`<g class="series ${series.className}"
        ><path d="${path ?? ''}" />${series.values.map(
          (v, i) =>
            html`<circle class="point" cx="${x(options.labels[i]!)!.toFixed(1)}" cy="${y(v).toFixed(1)}" r="3"
              ><title>${options.labels[i]}: ${fmt(v)} ${series.name}</title></circle
            >`,
        )}</g
      >`,
    );
  });
  // Label at most ~8 periods, counted back from the newest so the last week is always labelled and never crowded.
  const every = Math.max(1, Math.ceil(options.labels.length / 8));
  const last = options.labels.length - 1;
  const xTicks = options.labels.map((label, i) =>
    (last - i) % every === 0
      ? html`<text x="${x(label)!.toFixed(1)}" y="${height - margin.bottom + 18}" text-anchor="middle">${label}</text>`
      : '',
  );
  const legend = options.series.map((s, i) =>
    s
      ? html`<g class="legend ${s.className}" transform="translate(${margin.left + i * 220},12)"
          ><line x1="0" x2="24" y1="0" y2="0" /><text x="30" y="0" dominant-baseline="middle"
            >${s.name} (${i === 0 ? 'left axis' : 'right axis'})</text
          ></g
        >`
      : '',
  );
  return html`<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 ${width} ${height}">
    <title id="chart-title">${options.title}</title>
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
    ${lines}
  </svg>`;
}
