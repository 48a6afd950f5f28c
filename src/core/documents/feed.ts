import { Feed } from 'feed';
import { TRENDING_SIZE, WINDOW_DAYS } from '../../domain/rules.js';
import type { SectorSlug } from '../../schemas/enums.js';
import type { PeriodInfo } from '../../snapshot/snapshot.js';
import type { PeriodStartup } from '../../domain/period-startup.js';
import type { BlogPost } from './blog.js';
import { DATA_LICENSE } from '../../domain/license.js';
import { sectorInfo } from '../../domain/sectors.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The weekly RSS 2.0 feed: one item per published period (what moved, the top movers, a link to the period page)
 * and one per blog post, newest first. Built with the `feed` library, which writes the XML and its CDATA sections;
 * every text we put into an item's HTML description is HTML-escaped here first.
 */
export const FEED_TOP_MOVERS = 5;

export interface FeedInput {
  baseUrl: string;
  /** Published periods, any order. */
  periods: readonly PeriodInfo[];
  /** Trending rows of those periods (rank order within a period). */
  trending: readonly PeriodStartup[];
  posts: readonly BlogPost[];
  synthetic: boolean;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SYNTHETIC_NOTE =
  'Synthetic demo data: fictional startups with generated activity, not real companies or real GitHub data.';

interface PeriodItem {
  title: string;
  description: string;
}

/** The item of one period: what moved (the sector mix of the trending list) and the top movers. */
export function periodItem(period: PeriodInfo, rows: readonly PeriodStartup[], synthetic: boolean): PeriodItem {
  const movers = rows.slice(0, FEED_TOP_MOVERS);
  const bySector = new Map<SectorSlug, number>();
  for (const row of rows) bySector.set(row.sector, (bySector.get(row.sector) ?? 0) + 1);
  const sectorsLine = [...bySector]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([slug, n]) => `${escapeHtml(sectorInfo(slug).name)} ${n}`)
    .join(', ');
  const lead = movers[0];
  const title = lead
    ? `${period.name}: ${lead.startup.name} leads ${period.startupsTracked} tracked startups`
    : `${period.name}: ${period.startupsTracked} tracked startups, none ranked across sectors`;
  const parts = [
    `<p>${escapeHtml(`${period.startupsTracked} startups tracked in ${period.name} (${period.slug}).`)}${
      rows.length > 0
        ? ` ${escapeHtml(`Sectors in the trending top ${TRENDING_SIZE}:`)} ${sectorsLine}.`
        : ` ${escapeHtml('No startup was above the activity floor with evidence for its signal type, so none is trending.')}`
    }</p>`,
  ];
  if (movers.length > 0) {
    parts.push(
      `<p>${escapeHtml('Top movers:')}</p>`,
      `<ol>${movers
        .map(
          (m) =>
            `<li>${escapeHtml(
              `${m.startup.name} (${sectorInfo(m.sector).name}): ${m.startup.commitVelocity14d} commits in ${WINDOW_DAYS} days, ${m.startup.commitVelocityChange} versus the prior window; contributors ${m.startup.contributors} (${m.startup.contributorGrowth}); ${m.startup.signalType} (${m.label.signalStrength === 'none' ? 'no' : m.label.signalStrength} evidence).`,
            )}</li>`,
        )
        .join('')}</ol>`,
    );
  }
  if (synthetic) parts.push(`<p>${escapeHtml(SYNTHETIC_NOTE)}</p>`);
  return { title, description: parts.join('') };
}

export function buildFeed(input: FeedInput): string {
  const urls = siteUrls(input.baseUrl);
  const rowsByPeriod = new Map<string, PeriodStartup[]>();
  for (const row of input.trending) {
    const list = rowsByPeriod.get(row.period) ?? [];
    list.push(row);
    rowsByPeriod.set(row.period, list);
  }
  const items = [
    ...input.periods.map((period) => {
      const rows = (rowsByPeriod.get(period.slug) ?? []).sort((a, b) => a.rankOverall! - b.rankOverall!);
      const { title, description } = periodItem(period, rows, input.synthetic);
      const link = urls.period(period.slug);
      return { title, description, link, id: link, date: period.publishedAt };
    }),
    ...input.posts.map((post) => {
      const link = urls.blog(post.slug);
      return {
        title: post.title,
        description: `<p>${escapeHtml(post.summary)}</p>`,
        link,
        id: link,
        date: new Date(`${post.date}T00:00:00Z`),
      };
    }),
  ].sort((a, b) => b.date.getTime() - a.date.getTime() || (a.id < b.id ? -1 : 1));

  const feed = new Feed({
    title: 'Signal Service: weekly startup engineering-acceleration signals',
    description: `What moved each week in public GitHub activity of tracked startups: the top movers and the sectors behind them.${
      input.synthetic ? ` ${SYNTHETIC_NOTE}` : ''
    }`,
    id: urls.home(),
    link: urls.home(),
    language: 'en',
    copyright: DATA_LICENSE.terms,
    generator: 'Signal Service',
    ttl: 60,
    // The newest item's date, so the same data always renders the same bytes (and the same ETag).
    updated: items[0]?.date ?? new Date(0),
    feedLinks: { rss: urls.api('/feed.xml') },
  });
  for (const item of items) {
    feed.addItem({ title: item.title, id: item.id, link: item.link, description: item.description, date: item.date });
  }
  return feed.rss2();
}
