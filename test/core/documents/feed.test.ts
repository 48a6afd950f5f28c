import { evidenceDetails } from '../../../src/domain/evidence-links.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Parser from 'rss-parser';
import type { BlogPost } from '../../../src/core/documents/blog.js';
import { buildFeed, FEED_TOP_MOVERS } from '../../../src/core/documents/feed.js';
import type { PeriodInfo } from '../../../src/snapshot/snapshot.js';
import { signalLabel } from '../../../src/domain/signal-label.js';
import type { PeriodStartup } from '../../../src/domain/period-startup.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot({ startups: 80, periods: 1 });
const period = (slug: string, name: string, publishedAt: string): PeriodInfo => ({
  slug,
  name,
  dataset: 'synthetic-demo',
  datasetName: 'demo',
  publishedAt: new Date(publishedAt),
  contentHash: slug,
  startupsTracked: 80,
});
const periods = [
  period('2026-w45', 'Week 45, 2026', '2026-11-09T06:00:00Z'),
  period('2026-w46', 'Week 46, 2026', '2026-11-16T06:00:00Z'),
];
/** The snapshot's trending list, attributed to w46; w45 had only its top 3. */
const trending: PeriodStartup[] = [
  ...snapshot.trending.slice(0, 3).map((s, i) => ({
    period: '2026-w45',
    login: s.login,
    rankOverall: i + 1,
    rankInSector: s.rankInSector,
    compositeScore: s.scores.composite,
    sector: s.sector,
    startup: s.startup,
    label: signalLabel(s.startup.signalType, s.metrics),
    stageSource: 'estimated',
    evidenceDetails: evidenceDetails(s.startup.githubUrl, s.metrics),
  })),
  ...snapshot.trending.map((s, i) => ({
    period: '2026-w46',
    login: s.login,
    rankOverall: i + 1,
    rankInSector: s.rankInSector,
    compositeScore: s.scores.composite,
    sector: s.sector,
    startup: s.startup,
    label: signalLabel(s.startup.signalType, s.metrics),
    stageSource: 'estimated',
    evidenceDetails: evidenceDetails(s.startup.githubUrl, s.metrics),
  })),
];
const HOSTILE = 'Ends a CDATA ]]> then <script>alert("x")</script> & more';
const post: BlogPost = {
  slug: 'hostile-post',
  title: `Title ${HOSTILE}`,
  date: '2026-11-18',
  summary: `Summary ${HOSTILE}`,
  body: 'Body',
  tags: [],
};

const xml = buildFeed({ baseUrl: BASE, periods, trending, posts: [post], synthetic: true });
const parse = () => new Parser().parseString(xml);

describe('RSS feed', () => {
  test('parses as RSS 2.0 with one item per period plus one per blog post', async () => {
    assert.match(xml, /<rss version="2.0"/);
    assert.equal((await parse()).items.length, 3);
  });

  test('items are newest first and link the period page or the post', async () => {
    const feed = await parse();
    assert.deepEqual(
      feed.items.map((i) => i.link),
      [`${BASE}/blog/hostile-post`, `${BASE}/periods/2026-w46`, `${BASE}/periods/2026-w45`],
    );
  });

  test('a period item lists the top movers by name', async () => {
    const item = (await parse()).items[1]!;
    const names = snapshot.trending.slice(0, FEED_TOP_MOVERS).map((s) => s.startup.name);
    for (const name of names) assert.ok(item.content!.includes(name), name);
    assert.equal((item.content!.match(/<li>/g) ?? []).length, FEED_TOP_MOVERS);
  });

  test('a period item says what moved: the sectors of its trending list', async () => {
    const item = (await parse()).items[2]!;
    assert.match(item.content!, /Sectors in the trending top 20: /);
  });

  test('hostile text survives as literal text: the title reads back exactly', async () => {
    assert.equal((await parse()).items[0]!.title, `Title ${HOSTILE}`);
  });

  test('hostile text in a description is HTML-escaped, so readers show it and run nothing', async () => {
    const description = (await parse()).items[0]!.content!;
    assert.ok(!description.includes('<script>'));
    assert.ok(description.includes('&#60;script&#62;'));
  });

  test('no CDATA section contains a raw ]]>', () => {
    for (const match of xml.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)) assert.ok(!match[1]!.includes(']]>'));
  });

  test('the channel date is the newest item, so equal data renders equal bytes', async () => {
    assert.equal((await parse()).lastBuildDate, new Date('2026-11-18T00:00:00Z').toUTCString());
    assert.equal(buildFeed({ baseUrl: BASE, periods, trending, posts: [post], synthetic: true }), xml);
  });

  test('the synthetic dataset is labelled in the channel and every period item', async () => {
    const feed = await parse();
    assert.match(feed.description!, /Synthetic demo data/);
    assert.match(feed.items[1]!.content!, /Synthetic demo data/);
  });
});
