import type { SiteUrls } from '../domain/urls.js';
import type { Snapshot, SnapshotStartup } from '../snapshot/snapshot.js';
import { startupHistory, startupSeries } from '../snapshot/history.js';
import type { HistoryEntry } from '../domain/period-startup.js';
import type { SeriesTable, StartupSeries } from '../domain/series.js';
import { html, type SafeHtml } from './html.js';

/** What every page builder receives: the snapshot, the service's URLs and lazy access to the stored history. */
export interface PageContext {
  snapshot: Snapshot;
  baseUrl: string;
  urls: SiteUrls;
  /** Every startup's series over the stored periods (one query per snapshot, shared by all pages). */
  series(): Promise<SeriesTable>;
  /** One startup's stored weeks (read once per period and startup). */
  history(login: string): Promise<HistoryEntry[]>;
}

export function pageContext(snapshot: Snapshot, urls: SiteUrls): PageContext {
  return {
    snapshot,
    baseUrl: urls.base,
    urls,
    series: () => startupSeries(snapshot),
    history: (login) => startupHistory(snapshot, login),
  };
}

/**
 * Path part of one of our canonical URLs (links inside the site stay relative to the origin). A dossier's API URL
 * (/api/diligence.json?company=X, as answers and dossier candidates cite it) becomes its page, /diligence/X: a person
 * following a citation reads the dossier, and the page links to the JSON.
 */
export function sitePath(url: string, baseUrl: string): string {
  const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) || '/' : url;
  if (path.startsWith('/api/diligence.json?')) {
    const company = new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('company');
    if (company) return dossierPath(company);
  }
  return path;
}

/** The diligence dossier page of a company or fund (any name the dossier service resolves). */
export function dossierPath(name: string): string {
  return `/diligence/${encodeURIComponent(name)}`;
}

export function startupPath(s: Pick<SnapshotStartup, 'login'>): string {
  return `/startups/${encodeURIComponent(s.login.toLowerCase())}`;
}

/** A signed percent text ("+42%") with an up/down class and words for screen readers. */
export function change(text: string): SafeHtml {
  const n = Number.parseInt(text, 10);
  const cls = n > 0 ? 'up' : n < 0 ? 'down' : 'muted';
  return html`<span class="${cls}">${text}</span>`;
}

/** Rank movement since the previous period: "▲ 3", "▼ 2", "new", "=". */
export function movement(previous: number | null | undefined, current: number | null): SafeHtml {
  if (current === null) return html`<span class="muted">unranked</span>`;
  if (previous === null || previous === undefined)
    return html`<span class="up" title="Not ranked the previous week">new</span>`;
  const d = previous - current;
  if (d === 0) return html`<span class="muted" title="Same rank as the previous week">=</span>`;
  return d > 0
    ? html`<span class="up" title="Up ${d} since the previous week">▲ ${d}</span>`
    : html`<span class="down" title="Down ${-d} since the previous week">▼ ${-d}</span>`;
}

/** The rank a startup held in the period before the snapshot's, if it was stored and ranked. */
export function previousRank(series: StartupSeries | undefined, currentPeriod: string): number | null | undefined {
  if (!series) return undefined;
  const i = series.periods.lastIndexOf(currentPeriod);
  return i > 0 ? series.ranks[i - 1] : undefined;
}

export function formatInt(n: number): string {
  return n.toLocaleString('en-US');
}
