import type { Changelog, Glossary, Methodology, Pricing } from '../../schemas/documents.js';
import { deriveAsync } from '../../snapshot/derive-async.js';
import { trendingHistory } from '../../snapshot/history.js';
import { derive, rendered, type Rendered, type Snapshot } from '../../snapshot/snapshot.js';
import { citationItems, readPaper, type CitationFormat } from '../citations/citations.js';
import { buildAffiliateProgram, readAffiliates } from './affiliates.js';
import { loadBlogPosts, type BlogPost } from './blog.js';
import { buildChangelog, readReleaseLog } from './changelog.js';
import { buildFeed } from './feed.js';
import { buildGlossary, readGlossary } from './glossary.js';
import { buildBrandGuide, readBrandGuide } from './mascot.js';
import { buildMembersLedger, readMembers } from './members.js';
import { buildMethodology } from './methodology.js';
import { buildPricing } from './pricing.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (value: unknown): Rendered => rendered(JSON.stringify(value), JSON_TYPE);

/** A published document: its value (what a page shows) and its JSON body (what the API serves). */
export interface Published<T> {
  document: T;
  body: Rendered;
}

const published = <T>(document: T): Published<T> => ({ document, body: json(document) });

/**
 * The published documents and the content behind them: the blog, the glossary, the release log, the members
 * ledger, the affiliate program, the brand guide and the methodology report. Built once per process by the
 * composition root: the content is read and checked when it is built (a bad file stops the start), the documents
 * that do not depend on the data are built then, and those computed from a period are built once per period (kept
 * with the period) on first use. Routes, tools and pages serve what it returns; none of them reads a content file.
 */
export class DocumentsService {
  /** The blog's posts, newest first. */
  readonly posts: readonly BlogPost[];
  readonly glossary: Published<Glossary>;
  readonly methodology: Published<Methodology>;
  readonly pricing: Published<Pricing>;
  /** The changelog of `snapshot`: the release log and the periods it knows. */
  readonly changelog: (snapshot: Snapshot) => Published<Changelog>;
  /** The affiliate program's JSON, with the period's sample values. */
  readonly affiliateProgram: (snapshot: Snapshot) => Rendered;
  /** The social mascot's brand guide JSON, with a sample batch of the period. */
  readonly brandGuide: (snapshot: Snapshot) => Rendered;
  /** The members ledger's JSON, graded against the stored periods' trending lists (rejects when they cannot be read). */
  readonly membersLedger: (snapshot: Snapshot) => Promise<Rendered>;
  /** The RSS feed: one item per stored period and one per blog post (rejects when the trending history cannot be read). */
  readonly feed: (snapshot: Snapshot) => Promise<Rendered>;
  private readonly citationsOf: (snapshot: Snapshot) => {
    items: ReturnType<typeof citationItems>;
    bodies: Map<string, Rendered>;
  };
  /** citation-js is loaded with the first citation asked for, not at start. */
  private formatter: Promise<typeof import('../citations/format.js')> | undefined;

  /** `dir`: the documents' content directory (documentsDir); `baseUrl`: the service's own (App.urls.base). */
  constructor(dir: string, baseUrl: string, posts: readonly BlogPost[] = loadBlogPosts()) {
    this.posts = posts;
    const releaseLog = readReleaseLog(dir);
    this.glossary = published(buildGlossary(readGlossary(dir), baseUrl));
    this.methodology = published(buildMethodology(baseUrl));
    this.pricing = published(buildPricing(baseUrl));
    const members = readMembers(dir);
    const affiliates = readAffiliates(dir);
    const mascot = readBrandGuide(dir);
    const paper = readPaper(dir);

    this.changelog = derive((s) => published(buildChangelog(releaseLog, s.periods, baseUrl)));
    this.affiliateProgram = derive((s) => json(buildAffiliateProgram(affiliates, s, baseUrl)));
    this.brandGuide = derive((s) => json(buildBrandGuide(mascot, s, baseUrl)));
    this.membersLedger = deriveAsync(async (s) =>
      json(
        buildMembersLedger({
          data: members,
          publishedPeriods: s.periods,
          trending: (await trendingHistory(s)).map((row) => ({
            period: row.period,
            login: row.login,
            rank: row.rankOverall!,
            name: row.startup.name,
          })),
          names: new Map(s.startups.map((st) => [st.login.toLowerCase(), st.startup.name])),
          baseUrl,
        }),
      ),
    );
    this.feed = deriveAsync(async (s) =>
      rendered(
        buildFeed({ baseUrl, periods: s.periods, trending: await trendingHistory(s), posts, synthetic: s.synthetic }),
        'application/rss+xml; charset=utf-8',
      ),
    );
    // Items are computed once per period; each format of each item is rendered on first request and kept.
    this.citationsOf = derive((s) => ({
      items: citationItems(s, baseUrl, paper),
      bodies: new Map<string, Rendered>(),
    }));
  }

  /** What can be cited in `snapshot`: the paper, the dataset and each research finding. */
  citationSlugs(snapshot: Snapshot): string[] {
    return [...this.citationsOf(snapshot).items.keys()];
  }

  /** The citation of `slug` in `format` as plain text, or undefined when `slug` names nothing citable. */
  async citation(snapshot: Snapshot, format: CitationFormat, slug: string): Promise<Rendered | undefined> {
    const { items, bodies } = this.citationsOf(snapshot);
    const item = items.get(slug);
    if (!item) return undefined;
    const key = `${format}/${slug}`;
    let body = bodies.get(key);
    if (!body) {
      const { formatCitation } = await (this.formatter ??= import('../citations/format.js'));
      body = rendered(formatCitation(item, format), 'text/plain; charset=utf-8');
      bodies.set(key, body);
    }
    return body;
  }
}
