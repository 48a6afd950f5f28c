import { isSyntheticDataset } from '../../domain/datasets.js';
import { sectorInfo, sectors } from '../../domain/sectors.js';
import { comparisonSummary } from '../../core/answers/agent-queries.js';
import { comparablesOf } from '../../core/deep-signal/comparables.js';
import type { SignalEvidence } from '../../domain/records.js';
import type { SignalLabel } from '../../domain/signal-label.js';
import { DATA_LICENSE } from '../../domain/license.js';
import {
  WINDOW_DAYS,
  NEW_REPO_DAYS,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
} from '../../domain/rules.js';
import { SECTOR_SLUGS, type SectorSlug } from '../../schemas/enums.js';
import {
  sectorRanking,
  startupInPeriod,
  storedPeriod,
  storedPeriods,
  trending,
  type PeriodStartup,
} from '../../core/periods/reads.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import type { SeriesTable, StartupSeries } from '../../domain/series.js';
import { DEFAULT_RANGE, historyChart, sparkline, type ChartRange } from '../charts.js';
import { weekLabel } from '../week-label.js';
import { documentsDeals } from './dossier-facts.js';
import { change, dossierPath, formatInt, movement, previousRank, startupPath, type PageContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import type { PageInput } from '../layout.js';
import { askForm } from './ask.js';
import { stageBadge } from '../stage.js';
import { evidenceDetailsSection, repositoriesTable } from '../evidence-details.js';
import { isDemoHost } from '../demo-host.js';
import { evidenceDetails, type EvidenceDetails } from '../../domain/evidence-links.js';
import { stageSourceOf, type StageSource } from '../../domain/stage-source.js';
import { labelOf, signalCell, signalOf, signalWithStrength, strengthText } from '../signal-label.js';

type Figures = Pick<
  SnapshotStartup['startup'],
  'stage' | 'commitVelocity14d' | 'commitVelocityChange' | 'contributors' | 'contributorGrowth'
>;

/** The stage and the four figures of a ranking row, sortable by their data-value (this week's and a past week's). */
function figureCells(t: Figures): SafeHtml {
  return html`<td data-label="Stage" class="nowrap">${t.stage}</td>
    <td class="num" data-label="Commits" data-value="${t.commitVelocity14d}">${formatInt(t.commitVelocity14d)}</td>
    <td class="num" data-label="Change" data-value="${Number.parseInt(t.commitVelocityChange, 10)}">
      ${change(t.commitVelocityChange)}
    </td>
    <td class="num" data-label="Contributors" data-value="${t.contributors}">${t.contributors}</td>
    <td class="num" data-label="Growth" data-value="${Number.parseInt(t.contributorGrowth, 10)}">
      ${change(t.contributorGrowth)}
    </td>`;
}

/** The ranking table used by the home page and each sector: sortable by script, server order without it. */
export function rankingTable(
  ctx: PageContext,
  rows: readonly SnapshotStartup[],
  series: SeriesTable,
  options: { caption: string; rank: (s: SnapshotStartup) => number | null; showSector: boolean },
): SafeHtml {
  const period = ctx.snapshot.period.slug;
  const ties = tiedScores(rows);
  const anyBelowFloor = rows.some((s) => belowActivityFloor(s.startup));
  return html`<div class="table-scroll">
      <table data-sortable class="stack ranking">
        <caption>
          ${options.caption}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num" data-type="number">Rank</th>
            <th scope="col" data-type="text">Startup</th>
            ${options.showSector ? html`<th scope="col" data-type="text">Sector</th>` : ''}
            <th scope="col" data-type="text">Stage</th>
            <th scope="col" class="num" data-type="number">Commits (${WINDOW_DAYS}d)</th>
            <th scope="col" class="num" data-type="number">Change</th>
            <th scope="col" class="num" data-type="number">Contributors</th>
            <th scope="col" class="num" data-type="number">Growth</th>
            <th scope="col" class="num" data-type="number">Score</th>
            <th scope="col" data-type="text">Signal, evidence</th>
            <th scope="col" class="col-trend">Trend</th>
            ${options.showSector ? html`<th scope="col">Since last week</th>` : ''}
          </tr>
        </thead>
        <tbody>
          ${rows.map((s) => {
            const t = s.startup;
            const rank = options.rank(s);
            const history = series.get(s.login.toLowerCase());
            const below = belowActivityFloor(t);
            return html`<tr ${below ? html`class="below-floor"` : ''}>
              <td class="num rank" data-value="${rank ?? 9999}">${rank ?? '—'}</td>
              <td class="lead"><a href="${startupPath(s)}">${t.name}</a></td>
              ${
                options.showSector
                  ? html`<td data-label="Sector" class="sector">
                      <a href="/sectors/${s.sector}">${sectorInfo(s.sector).name}</a>
                    </td>`
                  : ''
              }
              ${figureCells(t)}
              <td class="num nowrap" data-label="Score" data-value="${s.scores.composite}">
                ${s.scores.composite}${
                  ties.has(s.scores.composite)
                    ? html`<abbr class="muted" title="Tied score: ordered by commits, then commit change">*</abbr>`
                    : ''
                }${below ? html` <a class="floor-tag" href="#below-floor">below floor</a>` : ''}
              </td>
              <td data-label="Signal" class="signal">${signalCell(s)}</td>
              <td data-label="Trend" class="col-trend">
                ${sparkline(history?.commits ?? [], `Commits per ${WINDOW_DAYS} days of ${t.name} over ${history?.commits.length ?? 0} weeks`)}
              </td>
              ${
                options.showSector
                  ? html`<td data-label="Since last week" class="nowrap">
                      ${movement(previousRank(history, period), s.rankOverall)}
                    </td>`
                  : ''
              }
            </tr>`;
          })}
        </tbody>
      </table>
    </div>
    ${
      anyBelowFloor
        ? html`<p class="muted" id="below-floor">
            <strong>Below floor</strong>: fewer than ${MIN_COMMITS_FOR_RANKING} commits in ${WINDOW_DAYS} days or fewer
            than ${MIN_CONTRIBUTORS_FOR_RANKING} contributors. Such a startup is listed after every startup above the
            floor, whatever its score, and is not ranked across sectors (<a href="/methodology">methodology</a>).
          </p>`
        : ''
    }
    ${
      ties.size
        ? html`<p class="muted">
            * Equal composite scores: the startup with more commits in ${WINDOW_DAYS} days ranks first, then the larger
            commit change, then the GitHub login in alphabetical order (<a href="/methodology">methodology</a>).
          </p>`
        : ''
    }`;
}

/** Too little activity to be ranked across sectors: the ranking lists such a startup after all the others. */
function belowActivityFloor(t: Figures): boolean {
  return t.commitVelocity14d < MIN_COMMITS_FOR_RANKING || t.contributors < MIN_CONTRIBUTORS_FOR_RANKING;
}

/** Composite scores held by more than one of `rows`: their order comes from the tie rule, which the page states. */
function tiedScores(rows: readonly SnapshotStartup[]): Set<number> {
  const seen = new Set<number>();
  const tied = new Set<number>();
  for (const s of rows) {
    if (seen.has(s.scores.composite)) tied.add(s.scores.composite);
    seen.add(s.scores.composite);
  }
  return tied;
}

/** A company's address as a link showing it, or, for a demo host, as text marked "demo" (it goes nowhere). */
function outValue(url: string): SafeHtml {
  const shown = url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return isDemoHost(url)
    ? html`<span class="muted">${shown} (demo address, not a live site)</span>`
    : html`<a href="${url}" rel="nofollow">${shown}</a>`;
}

/** Whether a week recorded anything its label's counts rest on (people, releases, repositories, files). */
function hasDetails(d: EvidenceDetails): boolean {
  return (
    d.people.length +
      d.events.length +
      d.newRepositories.length +
      d.infrastructurePaths.length +
      d.frameworksReplaced.length >
      0 || Boolean(d.languageMove)
  );
}

function datasetJsonLd(ctx: PageContext): Record<string, unknown> {
  const { snapshot, baseUrl } = ctx;
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: snapshot.meta.name,
    description: `Weekly engineering-acceleration signals of ${snapshot.startups.length} startups in ${sectors.length} sectors, ${snapshot.period.name}.`,
    url: `${baseUrl}/`,
    license: DATA_LICENSE.url,
    dateModified: snapshot.meta.lastUpdated,
    distribution: [
      { '@type': 'DataDownload', encodingFormat: 'application/json', contentUrl: `${baseUrl}/api/signals.json` },
      { '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: `${baseUrl}/api/signals.csv` },
      { '@type': 'DataDownload', encodingFormat: 'application/x-ndjson', contentUrl: `${baseUrl}/api/dataset.jsonl` },
    ],
  };
}

export async function homePage(ctx: PageContext): Promise<PageInput> {
  const { snapshot, baseUrl } = ctx;
  const series = await ctx.series();
  const body = html`<h1>Which startups are accelerating their engineering this week</h1>
    <p class="lede">
      Weekly signals from public GitHub activity: commit velocity, contributor growth and new repositories of
      ${formatInt(snapshot.startups.length)} tracked startups in ${sectors.length} sectors. ${snapshot.period.name},
      published ${snapshot.period.publishedAt.toISOString().slice(0, 10)}.
    </p>
    <h2 id="trending">Trending: the top ${snapshot.trending.length}</h2>
    ${rankingTable(ctx, snapshot.trending, series, {
      caption: `Top ${snapshot.trending.length} across all sectors by composite signal, ${snapshot.period.name}, with movement since the previous week.`,
      rank: (s) => s.rankOverall,
      showSector: true,
    })}
    <p>
      <a href="/startups">All ${formatInt(snapshot.startups.length)} tracked startups</a>, filterable by sector, stage,
      signal type and country · <a href="/compare">compare two startups</a>
    </p>
    <h2 id="ask">Ask a question</h2>
    ${askForm('', 'ask')}
    <h2 id="sectors">Sectors</h2>
    <ul class="cards">
      ${sectors.map((info) => {
        const list = snapshot.bySector.get(info.slug) ?? [];
        const leader = list[0];
        return html`<li>
          <h3><a href="/sectors/${info.slug}">${info.name}</a></h3>
          <p class="muted">${info.description}</p>
          <p>
            ${list.length}
            startups${leader ? html`; leading: <a href="${startupPath(leader)}">${leader.startup.name}</a>` : ''}
          </p>
        </li>`;
      })}
    </ul>
    <h2 id="use">Use the data</h2>
    <p>Everything on this site is also an API, free and without a key (<a href="/docs">API reference</a>):</p>
    <pre><code>curl ${baseUrl}/api/signals.json
curl '${baseUrl}/api/signal?company=${snapshot.trending[0]?.login ?? 'acme'}'
curl '${baseUrl}/api/ask?q=which+startups+are+trending'</code></pre>
    <p>
      Downloads: <a href="/api/signals.json">JSON</a>, <a href="/api/signals.csv">CSV</a>,
      <a href="/api/dataset.jsonl">every period as JSON lines</a>, <a href="/feed.xml">weekly RSS</a>.
    </p>
    <h2 id="agents">For AI agents</h2>
    <p>
      The same data as tools: an MCP server (over HTTP at <code>${baseUrl}/api/mcp/rpc</code> and as a command),
      function-calling definitions for OpenAI, Anthropic and Gemini at <a href="/api/agent/tools">/api/agent/tools</a>,
      an agent-to-agent endpoint described by <a href="/.well-known/agent-card.json">its agent card</a>, and
      <a href="/llms.txt">llms.txt</a>. The paid <a href="/agents/credits">Deep Signal</a> adds scores, a thesis,
      comparables and history.
    </p>`;
  return {
    path: '/',
    title: 'Signal Service: startup engineering-acceleration signals',
    description: `Trending startups by engineering acceleration, ${snapshot.period.name}: commit velocity, contributor growth and new repositories from public GitHub activity.`,
    body,
    jsonLd: datasetJsonLd(ctx),
    synthetic: snapshot.synthetic,
    section: 'home',
    sortable: true,
    charts: false,
  };
}

export function sectorsIndexPage(ctx: PageContext): PageInput {
  const { snapshot } = ctx;
  const body = html`<h1>Sectors</h1>
    <p class="lede">
      The ${sectors.length} sectors every tracked startup belongs to, with their rankings for ${snapshot.period.name}.
    </p>
    <div class="table-scroll">
      <table>
        <caption>
          Sectors with their number of startups and their leader this week.
        </caption>
        <thead>
          <tr>
            <th scope="col">Sector</th>
            <th scope="col" class="num">Startups</th>
            <th scope="col">Leader</th>
            <th scope="col" class="hide-phone">Description</th>
          </tr>
        </thead>
        <tbody>
          ${sectors.map((info) => {
            const list = snapshot.bySector.get(info.slug) ?? [];
            return html`<tr>
              <td><a href="/sectors/${info.slug}">${info.name}</a></td>
              <td class="num">${list.length}</td>
              <td>${list[0] ? html`<a href="${startupPath(list[0])}">${list[0].startup.name}</a>` : '—'}</td>
              <td class="hide-phone">${info.description}</td>
            </tr>`;
          })}
        </tbody>
      </table>
    </div>`;
  return {
    path: '/sectors',
    title: 'Sectors',
    description: `The ${sectors.length} sectors of the Signal Service and their leaders, ${snapshot.period.name}.`,
    body,
    synthetic: snapshot.synthetic,
    section: 'sectors',
  };
}

export function isSectorSlug(slug: string): slug is SectorSlug {
  return (SECTOR_SLUGS as readonly string[]).includes(slug);
}

export async function sectorPage(
  ctx: PageContext,
  slug: SectorSlug,
  periodSlug?: string,
  range: ChartRange = DEFAULT_RANGE,
): Promise<PageInput | undefined> {
  const { snapshot, baseUrl } = ctx;
  const info = sectorInfo(slug);
  const list = snapshot.bySector.get(slug) ?? [];
  const series = await ctx.series();
  // A past week chosen with ?period=: that week's stored ranking of the sector (a week not stored: 404).
  const past = periodSlug !== undefined && periodSlug !== snapshot.period.slug;
  const pastPeriod = past ? storedPeriod(snapshot, periodSlug) : undefined;
  if (past && !pastPeriod) return undefined;
  const pastRows = pastPeriod ? (await sectorRanking(snapshot, slug, pastPeriod.slug)).startups : [];
  const path = `/sectors/${slug}`;
  const body = html`<p><a href="/sectors">Sectors</a> › ${info.name}</p>
    <h1>${info.name}</h1>
    ${weekSelector(path, snapshot.periods, periodSlug ?? snapshot.period.slug, snapshot.period.slug, range)}
    ${
      pastPeriod
        ? html`<p class="notice" role="note">
              The ranking of ${pastPeriod.name}, as published that week.
              <a href="${path}">Back to ${snapshot.period.name}</a> (the current week).
            </p>
            <p class="lede">${info.description} ${pastRows.length} startups were tracked in ${info.name} that week.</p>
            ${pastRankingTable(ctx, info.name, pastPeriod, pastRows)}`
        : html`<p class="lede">
              ${info.description} ${list.length} tracked startups, ranked by composite signal for
              ${snapshot.period.name}.
            </p>
            ${rankingTable(ctx, list, series, {
              caption: `${info.name} ranking, ${snapshot.period.name}. Select a column heading to sort; the default order is the ranking.`,
              rank: (s) => s.rankInSector,
              showSector: false,
            })}`
    }
    <p>
      Download ${pastPeriod ? `the ranking of ${snapshot.period.name} (the current week)` : 'this ranking'}:
      <a href="/sectors/${slug}/ranking.csv">CSV</a> · <a href="/sectors/${slug}/ranking.json">JSON</a>; every sector:
      <a href="/api/signals.csv">signals.csv</a>. Filter across sectors on
      <a href="/startups?sector=${slug}">all startups</a>.
    </p>
    ${sectorHistory(info.name, list, series, periodSlug ?? snapshot.period.slug, (r) => pageHref(path, periodSlug, r), range)}`;
  if (pastPeriod)
    return {
      path: `${path}?period=${encodeURIComponent(pastPeriod.slug)}`,
      title: `${info.name} startups, ${pastPeriod.name}`,
      description: `${info.name}: the ranking of ${pastPeriod.name}, ${pastRows.length} startups.`,
      body,
      synthetic: isSyntheticDataset(pastPeriod.dataset),
      section: 'sectors',
      sortable: true,
      charts: true,
      noindex: true,
    };
  return {
    path,
    image: {
      path: `${path}/share.png?v=${snapshot.period.slug}`,
      alt: `${info.name}: ${list.length} startups ranked by engineering acceleration, ${snapshot.period.name}; the top three and their scores.`,
    },
    title: `${info.name} startups`,
    description: `${info.name}: ${list.length} startups ranked by engineering acceleration, ${snapshot.period.name}.`,
    body,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: `${info.name} startups, ${snapshot.period.name}`,
      url: `${baseUrl}/sectors/${slug}`,
      numberOfItems: list.length,
      itemListElement: list.slice(0, 50).map((s, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        name: s.startup.name,
        url: `${baseUrl}${startupPath(s)}`,
      })),
    },
    synthetic: snapshot.synthetic,
    section: 'sectors',
    sortable: true,
    charts: true,
  };
}

/**
 * A week selector (a GET form with `?period=`): every stored week, newest first, the shown one selected. Nothing
 * when only one week is stored.
 */
export function weekSelector(
  path: string,
  periods: readonly { slug: string }[],
  shown: string,
  current: string,
  range: ChartRange = DEFAULT_RANGE,
): SafeHtml {
  if (periods.length < 2) return html``;
  return html`<form class="filters" method="get" action="${path}" data-autosubmit>
    ${range === DEFAULT_RANGE ? '' : html`<input type="hidden" name="range" value="${range}" />`}
    <p>
      <label for="period">Week</label>
      <select id="period" name="period">
        ${[...periods]
          .reverse()
          .map(
            ({ slug: p }) =>
              html`<option value="${p}" ${shown === p ? html` selected` : ''}>
                ${weekLabel(p)}${p === current ? ' (current)' : ''}
              </option>`,
          )}
      </select>
      <button type="submit">Show</button>
    </p>
  </form>`;
}

/**
 * A past week's ranking of one sector from the stored rows of that week: the figures as published then. Each name
 * links to the startup's page for that week (its signal type and evidence that week are there) when it is still
 * tracked.
 */
function pastRankingTable(
  ctx: PageContext,
  sectorName: string,
  period: { slug: string; name: string },
  rows: readonly PeriodStartup[],
): SafeHtml {
  if (rows.length === 0) return html`<p class="muted">No ${sectorName} startup was stored that week.</p>`;
  return html`<div class="table-scroll">
      <table data-sortable class="stack ranking">
        <caption>
          ${sectorName} ranking, ${period.name}. Select a column heading to sort; the default order is the ranking.
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num" data-type="number">Rank</th>
            <th scope="col" data-type="text">Startup</th>
            <th scope="col" data-type="text">Stage</th>
            <th scope="col" class="num" data-type="number">Commits (${WINDOW_DAYS}d)</th>
            <th scope="col" class="num" data-type="number">Change</th>
            <th scope="col" class="num" data-type="number">Contributors</th>
            <th scope="col" class="num" data-type="number">Growth</th>
            <th scope="col" class="num" data-type="number">Score</th>
            <th scope="col" class="num" data-type="number">Rank overall</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map((r) => {
            const t = r.startup;
            const now = ctx.snapshot.byLogin.get(r.login.toLowerCase());
            return html`<tr>
              <td class="num rank" data-value="${r.rankInSector}">${r.rankInSector}</td>
              <td class="lead">
                ${now ? html`<a href="${startupPath(now)}?period=${encodeURIComponent(period.slug)}">${t.name}</a>` : t.name}
              </td>
              ${figureCells(t)}
              <td class="num" data-label="Score" data-value="${r.compositeScore}">${r.compositeScore}</td>
              <td class="num" data-label="Rank overall" data-value="${r.rankOverall ?? 99999}">
                ${r.rankOverall ?? html`<span class="muted">unranked</span>`}
              </td>
            </tr>`;
          })}
        </tbody>
      </table>
    </div>
    <p class="muted">
      The signal type of each startup that week, with its evidence, is on its page for the week (follow its name).
    </p>`;
}

/**
 * The sector's activity over the stored weeks: the commits and contributors of its current startups, summed per week
 * (a startup adds to the weeks it was stored in).
 */
function sectorHistory(
  name: string,
  list: readonly SnapshotStartup[],
  series: SeriesTable,
  shown: string,
  href: (range: ChartRange) => string,
  range: ChartRange,
): SafeHtml {
  const commits = new Map<string, number>();
  const contributors = new Map<string, number>();
  for (const s of list) {
    const h = series.get(s.login.toLowerCase());
    if (!h) continue;
    h.periods.forEach((p, i) => {
      commits.set(p, (commits.get(p) ?? 0) + h.commits[i]!);
      contributors.set(p, (contributors.get(p) ?? 0) + h.contributors[i]!);
    });
  }
  const periods = [...commits.keys()].sort();
  if (periods.length < 2) return html``;
  return html`<h2 id="history">${name} over the stored weeks</h2>
    ${activityHistory({
      id: 'sector-chart',
      subject: `${name}: commits per ${WINDOW_DAYS} days and contributors of its startups, summed`,
      caption: `${name} by week`,
      note: "The sector's current startups, summed per stored week.",
      periods,
      commits: periods.map((p) => commits.get(p)!),
      contributors: periods.map((p) => contributors.get(p)!),
      shown,
      range,
      href,
      weekHref: (p) => `/periods/${p}`,
    })}`;
}

/**
 * A history chart of commits and contributors per stored week with its figures as a table beneath (a startup's page
 * adds its rank as a third column): the sector's and the startup's pages show the same block.
 */
function activityHistory(o: {
  id: string;
  subject: string;
  caption: string;
  note: string;
  periods: readonly string[];
  commits: readonly number[];
  contributors: readonly number[];
  shown: string;
  range: ChartRange;
  href: (range: ChartRange) => string;
  weekHref: (period: string) => string;
  extra?: { name: string; cells: readonly (string | number)[] };
}): SafeHtml {
  return historyChart({
    id: o.id,
    subject: o.subject,
    periods: o.periods,
    shown: o.shown,
    range: o.range,
    href: o.href,
    series: [
      { name: `Commits (${WINDOW_DAYS}d)`, values: o.commits, className: 'series-a' },
      { name: 'Contributors', values: o.contributors, className: 'series-b' },
    ],
    note: o.note,
    after: html`<details>
      <summary>The figures as a table</summary>
      <div class="table-scroll">
        <table>
          <caption>
            ${o.caption}
          </caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col" class="num">Commits (${WINDOW_DAYS}d)</th>
              <th scope="col" class="num">Contributors</th>
              ${o.extra ? html`<th scope="col" class="num">${o.extra.name}</th>` : ''}
            </tr>
          </thead>
          <tbody>
            ${o.periods.map(
              (p, i) =>
                html`<tr>
                  <td><a href="${o.weekHref(p)}">${p}</a></td>
                  <td class="num">${formatInt(o.commits[i]!)}</td>
                  <td class="num">${formatInt(o.contributors[i]!)}</td>
                  ${o.extra ? html`<td class="num">${o.extra.cells[i]!}</td>` : ''}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>`,
  });
}

/**
 * A startup's or a sector's page with its week and chart range (`?period=&range=`, each only when given or not the
 * default), at its chart.
 */
function pageHref(path: string, periodSlug: string | undefined, range: ChartRange): string {
  const query = new URLSearchParams();
  if (periodSlug !== undefined) query.set('period', periodSlug);
  if (range !== DEFAULT_RANGE) query.set('range', range);
  const q = query.toString();
  return `${path}${q ? `?${q}` : ''}#history`;
}

/** The figures of one week, as the stats block shows them. */
interface WeekFigures {
  periodName: string;
  startup: SnapshotStartup['startup'];
  rankInSector: number;
  rankOverall: number | null;
  composite: number;
  /** The week's signal label: its type's evidence strength and line. */
  label: SignalLabel;
  /** The classifier's evidence per type that week. */
  evidence: SignalEvidence | undefined;
  /** How that week's stage is known. */
  stageSource: StageSource;
  /** What that week's label rests on, with links on GitHub. */
  details: EvidenceDetails;
}

/** The signal label's line and, when the week's rule recorded it, the evidence measured for every type. */
function evidenceSection(week: WeekFigures): SafeHtml {
  const evidence = week.evidence;
  return html`<p>${week.label.signalEvidence}</p>
    ${
      evidence?.reasons
        ? html`<details>
            <summary>Evidence for every type</summary>
            <ul>
              ${Object.entries(evidence.reasons).map(
                ([type, reason]) =>
                  html`<li>
                    <strong>${type}</strong> (score ${evidence.scores?.[type as keyof typeof evidence.scores] ?? '—'}):
                    ${reason}
                  </li>`,
              )}
            </ul>
          </details>`
        : html`<p class="muted">
            This week was classified by the earlier rule (${evidence?.rule ?? 'unknown'}), before evidence per type was
            collected.
          </p>`
    }
    ${evidenceDetailsSection(week.details)}`;
}

/**
 * On a past week's page, the startups ranked next to it in its sector that week, from that week's stored rows: the
 * comparables are computed for the current week only, and showing them there would mix two weeks on one page.
 */
async function pastNeighbours(
  ctx: PageContext,
  s: SnapshotStartup,
  periodSlug: string,
  week: WeekFigures,
): Promise<SafeHtml> {
  const own = (await startupInPeriod(ctx.snapshot, s.login, periodSlug)).startup;
  if (!own) return html``;
  const sectorName = sectorInfo(own.sector).name;
  const near = (await sectorRanking(ctx.snapshot, own.sector, periodSlug)).startups.filter(
    (r) => r.login !== own.login && Math.abs(r.rankInSector - own.rankInSector) <= NEIGHBOUR_RANKS,
  );
  return html`<h2 id="comparables">Ranked next to it in ${sectorName}, ${week.periodName}</h2>
    ${
      near.length
        ? html`<ul>
            ${near.map((r) => {
              const name = r.startup.name;
              const now = ctx.snapshot.byLogin.get(r.login.toLowerCase());
              return html`<li>
                ${now ? html`<a href="${startupPath(now)}?period=${encodeURIComponent(periodSlug)}">${name}</a>` : name}
                (rank ${r.rankInSector}, score ${r.compositeScore}, ${formatInt(r.startup.commitVelocity14d)} commits in
                ${WINDOW_DAYS} days)
              </li>`;
            })}
          </ul>`
        : html`<p class="muted">No other ${sectorName} startup was stored that week.</p>`
    }`;
}

/** How many sector ranks either side a past week's page lists as its neighbours. */
const NEIGHBOUR_RANKS = 2;

export async function startupPage(
  ctx: PageContext,
  s: SnapshotStartup,
  periodSlug?: string,
  range: ChartRange = DEFAULT_RANGE,
): Promise<PageInput | undefined> {
  const { snapshot, baseUrl } = ctx;
  const t = s.startup;
  const info = sectorInfo(s.sector);
  const history = (await ctx.series()).get(s.login.toLowerCase());
  const sectorTotal = snapshot.bySector.get(s.sector)?.length ?? 0;
  const ranked = snapshot.startups.filter((x) => x.eligible).length;
  const peers = comparablesOf(snapshot, s).map((c) => ({
    comparable: c,
    peer: snapshot.byLogin.get(c.githubUrl.replace(/\/+$/, '').split('/').pop()!.toLowerCase()),
  }));
  const evidence = s.metrics['signalEvidence'] as SignalEvidence | undefined;
  const label = labelOf(s);
  const org = t.githubUrl.replace(/\/+$/, '').split('/').pop() ?? s.login;
  const path = startupPath(s);
  // A past week chosen with ?period=: its figures from the stored history (no such week for this startup: 404).
  let week: WeekFigures = {
    periodName: snapshot.period.name,
    startup: t,
    rankInSector: s.rankInSector,
    rankOverall: s.rankOverall,
    composite: s.scores.composite,
    label,
    evidence,
    stageSource: stageSourceOf(s.metrics),
    details: evidenceDetails(t.githubUrl, s.metrics),
  };
  const past = periodSlug !== undefined && periodSlug !== snapshot.period.slug;
  if (past) {
    if (!storedPeriod(snapshot, periodSlug)) return undefined;
    const { info, startup: row } = await startupInPeriod(snapshot, s.login, periodSlug);
    if (!row) return undefined;
    week = {
      periodName: info.name,
      startup: row.startup,
      rankInSector: row.rankInSector,
      rankOverall: row.rankOverall,
      composite: row.compositeScore,
      label: row.label,
      evidence: row.evidence,
      stageSource: row.stageSource,
      details: row.evidenceDetails,
    };
  }
  const w = week.startup;
  const body = html`<p><a href="/sectors/${s.sector}">${info.name}</a> › ${t.name}</p>
    <h1>${t.name}</h1>
    <p class="lede">${t.description}</p>
    <p>
      <span class="badge">${w.signalType}</span> <span class="badge">${strengthText(week.label)}</span>
      ${stageBadge(w.stage, week.stageSource)}
      <span class="badge">${w.geography}</span>
    </p>
    ${weekSelector(
      path,
      (history?.periods ?? []).map((slug) => ({ slug })),
      periodSlug ?? snapshot.period.slug,
      snapshot.period.slug,
      range,
    )}
    ${
      past
        ? html`<p class="notice" role="note">
            Figures of ${week.periodName}. <a href="${path}">Back to ${snapshot.period.name}</a> (the current week).
          </p>`
        : ''
    }
    <h2 id="figures" class="visually-hidden">Figures, ${week.periodName}</h2>
    <dl class="stats">
      <div>
        <dt>Commits, last ${WINDOW_DAYS} days</dt>
        <dd>${formatInt(w.commitVelocity14d)} ${change(w.commitVelocityChange)}</dd>
      </div>
      <div>
        <dt>Contributors</dt>
        <dd>${formatInt(w.contributors)} ${change(w.contributorGrowth)}</dd>
      </div>
      <div>
        <dt>New repositories (${NEW_REPO_DAYS} days)</dt>
        <dd>${formatInt(w.newRepos)}</dd>
      </div>
      <div>
        <dt>Rank in ${info.name}</dt>
        <dd>${week.rankInSector}${past ? '' : ` of ${sectorTotal}`}</dd>
      </div>
      <div>
        <dt>Rank across sectors</dt>
        <dd>
          ${
            week.rankOverall !== null
              ? past
                ? week.rankOverall
                : `${week.rankOverall} of ${ranked}`
              : week.label.signalStrength === 'none'
                ? 'unranked (no evidence for its type)'
                : 'unranked'
          }
        </dd>
      </div>
      <div>
        <dt>Composite score</dt>
        <dd>${week.composite}</dd>
      </div>
    </dl>
    ${
      past
        ? ''
        : html`<p class="muted">
            ${formatInt(ranked)} of the ${formatInt(snapshot.startups.length)} tracked startups are above the activity
            floor and ranked across sectors; every startup is ranked within its sector.
          </p>`
    }
    <h2 id="company">Company facts</h2>
    <dl class="facts">
      <div>
        <dt>GitHub organisation</dt>
        <dd>${outValue(t.githubUrl)}</dd>
      </div>
      <div>
        <dt>Website</dt>
        <dd>${outValue(t.websiteUrl)}</dd>
      </div>
      <div>
        <dt>LinkedIn</dt>
        <dd>${outValue(t.linkedinUrl)}</dd>
      </div>
      <div>
        <dt>Sector</dt>
        <dd><a href="/sectors/${s.sector}">${info.name}</a></dd>
      </div>
      <div>
        <dt>What the label rests on</dt>
        <dd>
          ${
            hasDetails(week.details)
              ? html`<a href="#evidence-details">the people, releases and repositories behind it</a>`
              : html`<span class="muted">nothing recorded ${past ? 'that week' : 'this week'}</span>`
          }
        </dd>
      </div>
    </dl>
    ${repositoriesTable(week.details, week.periodName)}
    <h2 id="history">Commit velocity and contributors by week</h2>
    ${
      history && history.periods.length > 0
        ? activityHistory({
            id: 'history-chart',
            subject: `${t.name}: commits per ${WINDOW_DAYS} days and contributors`,
            caption: `${t.name} by week`,
            note: 'One point per stored week.',
            periods: history.periods,
            commits: history.commits,
            contributors: history.contributors,
            shown: periodSlug ?? snapshot.period.slug,
            range,
            href: (r) => pageHref(path, periodSlug, r),
            weekHref: (p) => pageHref(path, p, range).replace(/#history$/, ''),
            extra: { name: 'Rank', cells: history.periods.map((_, i) => history.ranks[i] ?? '—') },
          })
        : html`<p class="muted">No stored history yet.</p>`
    }
    <h2 id="evidence">Why ${w.signalType}${past ? `, ${week.periodName}` : ''}</h2>
    ${evidenceSection(week)}
    ${
      past
        ? await pastNeighbours(ctx, s, periodSlug!, week)
        : html`<h2 id="comparables">Comparables in ${info.name}</h2>
            <ul>
              ${peers.map(({ comparable: c, peer }) =>
                peer
                  ? html`<li>
                      <a href="${startupPath(peer)}">${c.name}</a> (rank ${c.rankInSector},
                      ${signalWithStrength(c.signalType, c)}): ${c.reason} ·
                      <a
                        href="/compare/${encodeURIComponent(s.login.toLowerCase())}-vs-${encodeURIComponent(peer.login.toLowerCase())}"
                        >compare</a
                      >
                    </li>`
                  : html`<li>${c.name}: ${c.reason}</li>`,
              )}
            </ul>`
    }
    <h2 id="links">Links and data</h2>
    <ul>
      ${
        documentsDeals(ctx, t.name)
          ? html`<li>
              Diligence: <a href="${dossierPath(t.name)}">the dossier of ${t.name}</a> (acquisitions, backers, the
              signal, sources)
            </li>`
          : ''
      }
      <li>
        This week as JSON:
        <a href="/api/signal?company=${encodeURIComponent(s.login)}">/api/signal?company=${s.login}</a>
      </li>
      <li>Every stored week: <a href="${path}/history.csv">CSV</a> · <a href="${path}/history.json">JSON</a></li>
      <li>
        Badge:
        <a href="/api/badge/momentum/${encodeURIComponent(org)}/${encodeURIComponent(org)}/svg">momentum badge (SVG)</a>
      </li>
    </ul>`;
  return {
    path: past ? `${path}?period=${encodeURIComponent(periodSlug!)}` : path,
    image: {
      path: `${path}/share.png?v=${snapshot.period.slug}`,
      alt: `${t.name}, ${snapshot.period.name}: ${t.signalType}, ${t.commitVelocity14d} commits in ${WINDOW_DAYS} days, ${t.contributors} contributors, score ${s.scores.composite}.`,
    },
    title: past ? `${t.name}, ${week.periodName}` : `${t.name}: ${t.signalType}`,
    description: `${t.name} (${info.name}, ${w.stage}): ${w.commitVelocity14d} commits in ${WINDOW_DAYS} days (${w.commitVelocityChange}), ${w.contributors} contributors (${w.contributorGrowth}), ${week.periodName}.`,
    body,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: t.name,
      description: t.description,
      url: `${baseUrl}${startupPath(s)}`,
      sameAs: [t.githubUrl, t.websiteUrl, t.linkedinUrl].filter((u) => !isDemoHost(u)),
    },
    ogType: 'profile',
    synthetic: snapshot.synthetic,
    section: 'startups',
    charts: true,
    noindex: past,
  };
}

/** /compare/{a}-vs-{b}: logins may contain "-vs-", so every split is tried. */
export function findComparison(ctx: PageContext, pair: string): [SnapshotStartup, SnapshotStartup] | undefined {
  const { byLogin } = ctx.snapshot;
  let at = pair.indexOf('-vs-');
  while (at > 0) {
    const a = byLogin.get(pair.slice(0, at).toLowerCase());
    const b = byLogin.get(pair.slice(at + 4).toLowerCase());
    if (a && b && a !== b) return [a, b];
    at = pair.indexOf('-vs-', at + 1);
  }
  return undefined;
}

export async function comparePage(
  ctx: PageContext,
  a: SnapshotStartup,
  b: SnapshotStartup,
  range: ChartRange = DEFAULT_RANGE,
): Promise<PageInput> {
  const { snapshot } = ctx;
  const series = await ctx.series();
  const row = (label: string, f: (s: SnapshotStartup) => SafeHtml | string | number) =>
    html`<tr>
      <th scope="row">${label}</th>
      <td>${f(a)}</td>
      <td>${f(b)}</td>
    </tr>`;
  const path = `/compare/${encodeURIComponent(a.login.toLowerCase())}-vs-${encodeURIComponent(b.login.toLowerCase())}`;
  const ha = series.get(a.login.toLowerCase());
  const hb = series.get(b.login.toLowerCase());
  const weeks = [...new Set([...(ha?.periods ?? []), ...(hb?.periods ?? [])])].sort();
  const valuesOf = (h: StartupSeries | undefined) =>
    weeks.map((p) => {
      const i = h?.periods.indexOf(p) ?? -1;
      return i >= 0 ? h!.commits[i]! : 0;
    });
  const body = html`<h1>${a.startup.name} vs ${b.startup.name}</h1>
    <p class="lede">${comparisonSummary(a, b, snapshot.period.name)}</p>
    ${comparePicker(snapshot, a.startup.name, b.startup.name)}
    <div class="table-scroll">
      <table class="compare">
        <caption>
          Side by side, ${snapshot.period.name}
        </caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col"><a href="${startupPath(a)}">${a.startup.name}</a></th>
            <th scope="col"><a href="${startupPath(b)}">${b.startup.name}</a></th>
          </tr>
        </thead>
        <tbody>
          ${row('Sector', (s) => sectorInfo(s.sector).name)} ${row('Stage', (s) => s.startup.stage)}
          ${row('Signal type', (s) => signalOf(s))}
          ${row(`Commits (${WINDOW_DAYS} days)`, (s) => html`${formatInt(s.startup.commitVelocity14d)} ${change(s.startup.commitVelocityChange)}`)}
          ${row('Contributors', (s) => html`${s.startup.contributors} ${change(s.startup.contributorGrowth)}`)}
          ${row(`New repositories (${NEW_REPO_DAYS} days)`, (s) => s.startup.newRepos)}
          ${row('Composite score', (s) => s.scores.composite)} ${row('Rank in sector', (s) => s.rankInSector)}
          ${row('Rank across sectors', (s) => s.rankOverall ?? 'unranked')}
        </tbody>
      </table>
    </div>
    ${
      weeks.length > 1
        ? html`<h2 id="history">Commits per ${WINDOW_DAYS} days by week</h2>
            ${historyChart({
              id: 'compare-chart',
              subject: `Commits per ${WINDOW_DAYS} days of ${a.startup.name} and ${b.startup.name}`,
              periods: weeks,
              shown: snapshot.period.slug,
              range,
              href: (r) => pageHref(path, undefined, r),
              series: [
                { name: a.startup.name, values: valuesOf(ha), className: 'series-a' },
                { name: b.startup.name, values: valuesOf(hb), className: 'series-b' },
              ],
              sharedAxis: true,
              note: "Both on one axis; a week a startup was not stored counts 0. The weekly figures are on each startup's page.",
            })}`
        : ''
    }`;
  return {
    path,
    title: `${a.startup.name} vs ${b.startup.name}`,
    description: `${a.startup.name} and ${b.startup.name} side by side: commits, contributors and signal type, ${snapshot.period.name}.`,
    body,
    synthetic: snapshot.synthetic,
    section: 'startups',
    charts: true,
  };
}

/**
 * The form that picks two startups to compare (GET /compare?a=&b=: names or logins, resolved by the one rule). Both
 * fields suggest the tracked startups' names as one types (a `<datalist>`, the browser's own completion: no script).
 */
export function comparePicker(snapshot: Snapshot, a = '', b = ''): SafeHtml {
  const names = [...new Set(snapshot.startups.map((s) => s.startup.name))].sort((x, y) => x.localeCompare(y, 'en'));
  return html`<form class="filters" method="get" action="/compare">
    <p>
      <label for="compare-a">Startup</label>
      <input
        id="compare-a"
        type="text"
        name="a"
        value="${a}"
        maxlength="80"
        required
        autocomplete="off"
        list="startup-names"
      />
    </p>
    <p>
      <label for="compare-b">compared with</label>
      <input
        id="compare-b"
        type="text"
        name="b"
        value="${b}"
        maxlength="80"
        required
        autocomplete="off"
        list="startup-names"
      />
    </p>
    <p><button type="submit">Compare</button></p>
    <datalist id="startup-names">${names.map((n) => html`<option value="${n}"></option>`)}</datalist>
  </form>`;
}

/** /compare without a pair (or with names that do not resolve): the picker, and what went wrong. */
export function compareIndexPage(
  ctx: PageContext,
  input: { a?: string; b?: string; problems?: readonly SafeHtml[] } = {},
): PageInput {
  const { snapshot } = ctx;
  const [first, second] = snapshot.trending;
  const body = html`<h1>Compare two startups</h1>
    <p class="lede">
      Type two names or GitHub organisations; the comparison shows their figures side by side and their commits over
      every stored week on one chart.
    </p>
    ${input.problems?.length ? html`<div class="notice" role="alert">${input.problems.map((p) => html`<p>${p}</p>`)}</div>` : ''}
    ${comparePicker(snapshot, input.a, input.b)}
    ${
      first && second
        ? html`<p>
            For example:
            <a
              href="/compare/${encodeURIComponent(first.login.toLowerCase())}-vs-${encodeURIComponent(second.login.toLowerCase())}"
              >${first.startup.name} vs ${second.startup.name}</a
            >, the two leaders this week.
          </p>`
        : ''
    }`;
  return {
    path: '/compare',
    title: 'Compare two startups',
    description: 'Compare the engineering signals of two tracked startups side by side.',
    body,
    synthetic: snapshot.synthetic,
    section: 'startups',
    noindex: Boolean(input.a || input.b),
  };
}

export function periodsIndexPage(ctx: PageContext): PageInput {
  const { snapshot } = ctx;
  const { periods } = storedPeriods(snapshot);
  // The dataset's name is said once when every week has the same one (a column repeating it crowded a phone's rows).
  const datasets = new Set(periods.map((p) => p.datasetName));
  const oneDataset = datasets.size === 1 ? [...datasets][0] : undefined;
  const body = html`<h1>Archive of weekly periods</h1>
    <p class="lede">
      Every published week, newest first. Each keeps its trending list; the full data of every week is in
      <a href="/api/dataset.jsonl">the JSON-lines dataset</a>.
    </p>
    ${oneDataset ? html`<p>Every week is of the same dataset: ${oneDataset}.</p>` : ''}
    <div class="table-scroll">
      <table>
        <caption>
          ${periods.length} published periods
        </caption>
        <thead>
          <tr>
            <th scope="col">Week</th>
            <th scope="col">Published</th>
            <th scope="col" class="num">Startups</th>
            ${oneDataset ? '' : html`<th scope="col">Dataset</th>`}
          </tr>
        </thead>
        <tbody>
          ${periods.map(
            (p) =>
              html`<tr>
                <td><a href="/periods/${p.slug}">${p.name}</a></td>
                <td class="nowrap">${p.publishedAt.toISOString().slice(0, 10)}</td>
                <td class="num">${p.startupsTracked}</td>
                ${oneDataset ? '' : html`<td>${p.datasetName}</td>`}
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  return {
    path: '/periods',
    title: 'Archive of weekly periods',
    description: `${periods.length} published weekly periods of startup engineering-acceleration signals.`,
    body,
    synthetic: snapshot.synthetic,
    section: 'periods',
  };
}

export async function periodPage(ctx: PageContext, slug: string): Promise<PageInput | undefined> {
  const { snapshot } = ctx;
  const index = snapshot.periods.findIndex((p) => p.slug === slug);
  if (index < 0) return undefined;
  const period = snapshot.periods[index]!;
  const rows = (await trending(snapshot, slug)).startups;
  const previous = snapshot.periods[index - 1];
  const next = snapshot.periods[index + 1];
  const body = html`<p><a href="/periods">Archive</a> › ${period.name}</p>
    <h1>${period.name}</h1>
    <p class="lede">
      ${period.startupsTracked} startups tracked; published ${period.publishedAt.toISOString().slice(0, 10)}.
      ${period.slug === snapshot.period.slug ? 'This is the current period.' : ''}
    </p>
    <nav aria-label="Periods">
      <p>
        ${previous ? html`<a href="/periods/${previous.slug}" rel="prev">← ${previous.name}</a>` : ''}
        ${next ? html` · <a href="/periods/${next.slug}" rel="next">${next.name} →</a>` : ''}
      </p>
    </nav>
    <h2>Trending that week</h2>
    ${
      rows.length
        ? html`<ol>
            ${rows.map((r) => {
              const current = snapshot.byLogin.get(r.login.toLowerCase());
              return html`<li>
                ${current ? html`<a href="${startupPath(current)}">${r.startup.name}</a>` : r.startup.name}
                (${sectorInfo(r.sector).name}): ${r.startup.commitVelocity14d} commits
                ${change(r.startup.commitVelocityChange)}, ${signalWithStrength(r.startup.signalType, r.label)}
              </li>`;
            })}
          </ol>`
        : html`<p class="muted">No startup was ranked that week.</p>`
    }
    <h2>Every sector that week</h2>
    <p>The full ranking of each sector as published that week:</p>
    <ul>
      ${sectors.map(
        (info) =>
          html`<li>
            <a href="/sectors/${info.slug}${slug === snapshot.period.slug ? '' : `?period=${slug}`}">${info.name}</a>
          </li>`,
      )}
    </ul>`;
  return {
    path: `/periods/${slug}`,
    title: period.name,
    description: `The trending startups of ${period.name}.`,
    body,
    synthetic: isSyntheticDataset(period.dataset),
    section: 'periods',
  };
}
