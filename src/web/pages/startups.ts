import { stringify } from 'csv-stringify/sync';
import { sectorInfo, sectors } from '../../domain/sectors.js';
import { SIGNAL_TYPES, STAGES } from '../../schemas/enums.js';
import { neutraliseCell, renderSignalsCsv } from '../../snapshot/csv.js';
import type { SnapshotStartup } from '../../snapshot/snapshot.js';
import { formatInt, type PageContext } from '../context.js';
import { html } from '../html.js';
import type { PageInput } from '../layout.js';
import { rankingTable } from './data.js';

/** Rows per page of the all-startups list. */
export const STARTUPS_PER_PAGE = 50;

/** The filters of /startups; each is one of a fixed list (anything else is ignored, never echoed as a filter). */
export interface StartupFilters {
  sector?: string | undefined;
  stage?: string | undefined;
  signal?: string | undefined;
  country?: string | undefined;
  page?: number | undefined;
}

/** The countries (geographies) of the period's startups, sorted. */
function countriesOf(startups: readonly SnapshotStartup[]): string[] {
  return [...new Set(startups.map((s) => s.startup.geography))].sort((a, b) => a.localeCompare(b, 'en'));
}

/**
 * The filters with every value checked against its list and the page clamped: the canonical form, used as the page's
 * cache key and canonical URL, so an unknown value is one page, not one per spelling.
 */
export function normaliseFilters(ctx: PageContext, input: StartupFilters): Required<StartupFilters> {
  const known = <T extends string>(list: readonly T[], v: string | undefined) =>
    v && (list as readonly string[]).includes(v) ? v : '';
  return {
    sector: known(
      sectors.map((s) => s.slug),
      input.sector,
    ),
    stage: known(STAGES, input.stage),
    signal: known(SIGNAL_TYPES, input.signal),
    country: known(countriesOf(ctx.snapshot.startups), input.country),
    page: Math.max(1, Math.floor(input.page ?? 1) || 1),
  };
}

export function filtersQuery(f: Required<StartupFilters>, page = f.page): string {
  const params = new URLSearchParams();
  for (const key of ['sector', 'stage', 'signal', 'country'] as const) if (f[key]) params.set(key, f[key]);
  if (page > 1) params.set('page', String(page));
  const q = params.toString();
  return q ? `?${q}` : '';
}

/** /startups: every tracked startup in ranking order, filtered by sector, stage, signal type and country, 50 a page. */
export async function startupsPage(ctx: PageContext, f: Required<StartupFilters>): Promise<PageInput | undefined> {
  const { snapshot } = ctx;
  const matching = snapshot.startups.filter(
    (s) =>
      (!f.sector || s.sector === f.sector) &&
      (!f.stage || s.startup.stage === f.stage) &&
      (!f.signal || s.startup.signalType === f.signal) &&
      (!f.country || s.startup.geography === f.country),
  );
  const pages = Math.max(1, Math.ceil(matching.length / STARTUPS_PER_PAGE));
  if (f.page > pages) return undefined;
  const rows = matching.slice((f.page - 1) * STARTUPS_PER_PAGE, f.page * STARTUPS_PER_PAGE);
  const series = await ctx.series();
  const select = (id: string, label: string, current: string, options: readonly (readonly [string, string])[]) =>
    html`<p>
      <label for="${id}">${label}</label>
      <select id="${id}" name="${id}">
        <option value="">All</option>
        ${options.map(([value, text]) => html`<option value="${value}" ${value === current ? html` selected` : ''}>${text}</option>`)}
      </select>
    </p>`;
  const filtered = Boolean(f.sector || f.stage || f.signal || f.country);
  const first = (f.page - 1) * STARTUPS_PER_PAGE + 1;
  const body = html`<h1>All tracked startups</h1>
    <p class="lede">
      The ${formatInt(snapshot.startups.length)} startups of ${snapshot.period.name} in ranking order: those above the
      activity floor by their rank across sectors, then the rest.
    </p>
    <form class="filters filter-grid" method="get" action="/startups" aria-label="Filters">
      ${select(
        'sector',
        'Sector',
        f.sector,
        sectors.map((s) => [s.slug, s.name] as const),
      )}
      ${select(
        'stage',
        'Stage',
        f.stage,
        STAGES.map((s) => [s, s] as const),
      )}
      ${select(
        'signal',
        'Signal type',
        f.signal,
        SIGNAL_TYPES.map((s) => [s, s] as const),
      )}
      ${select(
        'country',
        'Country',
        f.country,
        countriesOf(snapshot.startups).map((c) => [c, c] as const),
      )}
      <p><button type="submit">Filter</button></p>
      ${filtered ? html`<p><a href="/startups">Clear the filters</a></p>` : ''}
    </form>
    <p role="status">
      ${
        matching.length
          ? `${formatInt(matching.length)} startup${matching.length === 1 ? '' : 's'}${filtered ? ' match' : ''}; ${first}–${first + rows.length - 1} shown.`
          : 'No startup matches these filters.'
      }
    </p>
    ${
      rows.length
        ? rankingTable(ctx, rows, series, {
            caption: `Tracked startups${filtered ? ', filtered' : ''}, ${snapshot.period.name}, page ${f.page} of ${pages}. Rank is across sectors; “—” is below the activity floor.`,
            rank: (s) => s.rankOverall,
            showSector: true,
          })
        : ''
    }
    ${pager('/startups', f, pages)}
    <p>
      Everything as data: <a href="/api/signals.csv">signals.csv</a> · <a href="/api/signals.json">signals.json</a>.
    </p>`;
  return {
    path: `/startups${filtersQuery(f)}`,
    title: filtered ? 'Tracked startups, filtered' : 'All tracked startups',
    description: `Every startup the Signal Service tracks in ${snapshot.period.name}, filterable by sector, stage, signal type and country.`,
    body,
    synthetic: snapshot.synthetic,
    section: 'startups',
    sortable: true,
    noindex: filtered || f.page > 1,
  };
}

function pager(base: string, f: Required<StartupFilters>, pages: number) {
  if (pages <= 1) return '';
  return html`<nav aria-label="Pages">
    <ul class="pager">
      ${f.page > 1 ? html`<li><a href="${base}${filtersQuery(f, f.page - 1)}" rel="prev">← Previous</a></li>` : ''}
      <li>Page ${f.page} of ${pages}</li>
      ${f.page < pages ? html`<li><a href="${base}${filtersQuery(f, f.page + 1)}" rel="next">Next →</a></li>` : ''}
    </ul>
  </nav>`;
}

/** A sector's ranking as CSV: the columns of /api/signals.csv, this sector's rows. */
export function sectorCsv(ctx: PageContext, slug: string): string {
  const { snapshot } = ctx;
  const list = snapshot.bySector.get(slug as never) ?? [];
  const trending = new Map(snapshot.trending.map((s, i) => [s.login, i + 1]));
  return renderSignalsCsv(snapshot.period.slug, new Map([[slug as never, list]]), trending, snapshot.synthetic);
}

/** A sector's ranking as JSON: the Startup records in sector order with their ranks. */
export function sectorJson(ctx: PageContext, slug: string): string {
  const { snapshot } = ctx;
  const list = snapshot.bySector.get(slug as never) ?? [];
  return JSON.stringify({
    period: snapshot.period.slug,
    sector: { slug, name: sectorInfo(slug as never).name },
    synthetic: snapshot.synthetic,
    startups: list.map((s) => ({
      rankInSector: s.rankInSector,
      rankOverall: s.rankOverall,
      compositeScore: s.scores.composite,
      ...s.startup,
    })),
  });
}

/** One startup's stored weeks, oldest first. */
export async function historyRows(ctx: PageContext, s: SnapshotStartup) {
  return (await ctx.history(s.login)).map((r) => ({
    period: r.period,
    sector: r.sector,
    rankInSector: r.rankInSector,
    rankOverall: r.rankOverall,
    compositeScore: r.compositeScore,
    commitVelocity14d: r.startup.commitVelocity14d,
    commitVelocityChange: r.startup.commitVelocityChange,
    contributors: r.startup.contributors,
    contributorGrowth: r.startup.contributorGrowth,
    newRepos: r.startup.newRepos,
    signalType: r.startup.signalType,
    signalStrength: r.label.signalStrength,
    signalFinding: r.label.signalFinding,
    stage: r.startup.stage,
  }));
}

/** "+34%" as 34, "-7%" as -7: a number a spreadsheet can sum and chart ('' when it is not a percent). */
export function percentNumber(value: unknown): string {
  const m = /^([+-]?\d+(?:\.\d+)?)%$/.exec(String(value ?? '').trim());
  return m ? String(Number(m[1])) : '';
}

/** One startup's stored weeks as CSV, oldest first; the two changes as numbers of percent (their columns say so). */
export async function historyCsv(ctx: PageContext, s: SnapshotStartup): Promise<string> {
  const rows = await historyRows(ctx, s);
  const percents: Record<string, string> = {
    commitVelocityChangePct: 'commitVelocityChange',
    contributorGrowthPct: 'contributorGrowth',
  };
  const columns = [
    'period',
    'sector',
    'rankInSector',
    'rankOverall',
    'compositeScore',
    'commitVelocity14d',
    'commitVelocityChangePct',
    'contributors',
    'contributorGrowthPct',
    'newRepos',
    'signalType',
    'signalFinding',
    'stage',
    'synthetic',
  ] as const;
  const body = rows.map((r) =>
    columns.map((c) =>
      c === 'synthetic'
        ? String(ctx.snapshot.synthetic)
        : percents[c]
          ? percentNumber((r as Record<string, unknown>)[percents[c]!])
          : neutraliseCell(String((r as Record<string, unknown>)[c] ?? '')),
    ),
  );
  return stringify([[...columns], ...body], { record_delimiter: '\r\n' });
}

export async function historyJson(ctx: PageContext, s: SnapshotStartup): Promise<string> {
  return JSON.stringify({
    login: s.login,
    name: s.startup.name,
    synthetic: ctx.snapshot.synthetic,
    weeks: await historyRows(ctx, s),
  });
}
