import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import type { AnswerEntry } from '../answers/entry.js';
import { WINDOW_DAYS, NEW_REPO_DAYS } from '../../domain/rules.js';
import { answerCorpus } from '../answers/corpus.js';
import { derivePerBaseInSteps } from '../answers/derive.js';
import { drain, inChunks, sortInSteps, type Steps } from '../../snapshot/steps.js';
import { comparisons, comparisonSummary } from '../answers/agent-queries.js';
import { loadBlogPosts, markdownToText, type BlogPost } from '../documents/blog.js';
import { researchFindings } from '../documents/research.js';
import { sectorInfo, sectors } from '../../domain/sectors.js';
import { siteUrls, type SiteUrls } from '../../domain/urls.js';
import { SiteSearch, type SearchDocument } from './site-search.js';

/**
 * Every page the site search covers, for one snapshot: startups, sectors, blog posts, comparisons, agent-query
 * answers, FAQs and research findings (the seven `type` values).
 */
export function searchDocuments(
  snapshot: Snapshot,
  baseUrl: string,
  blog: readonly BlogPost[] = loadBlogPosts(),
): SearchDocument[] {
  return drain(searchDocumentSteps(snapshot, baseUrl, blog));
}

/** Startups and answers described per step when the documents are gathered in steps. */
const DOCUMENT_CHUNK = 2_000;

/** Orders titles of equal score: one collator for every comparison (`localeCompare` builds one per call). */
const titleOrder = new Intl.Collator('en');

/** What every startup page's document shares. */
interface StartupPages {
  urls: SiteUrls;
  period: string;
  /** The demo's note at the end of the text ('' for real data). */
  fiction: string;
}

/**
 * A startup's page as the search sees it. Only its title and name are held (the sort and name matches read them);
 * the text, URL and keywords are written when read: at build time to index them, then for a hit's snippet. Held as
 * strings, they were a few hundred bytes per startup for pages most searches never return.
 */
class StartupDocument implements SearchDocument {
  constructor(
    private readonly pages: StartupPages,
    private readonly s: SnapshotStartup,
    readonly title: string,
  ) {}

  get type(): 'startup' {
    return 'startup';
  }

  get name(): string {
    return this.s.startup.name;
  }

  get url(): string {
    return this.pages.urls.startup(this.s.login);
  }

  get keywords(): string {
    return `${this.s.login} ${this.s.sector}`;
  }

  get text(): string {
    const { s, pages } = this;
    const t = s.startup;
    return `${t.description} ${sectorInfo(s.sector).name}, ${t.stage}, ${t.geography}. ${t.signalType}: ${t.commitVelocity14d} commits in ${WINDOW_DAYS} days (${t.commitVelocityChange}), ${t.contributors} contributors (${t.contributorGrowth}), ${t.newRepos} new repositories in ${NEW_REPO_DAYS} days, ${pages.period}.${pages.fiction}`;
  }
}

/**
 * An answer of the corpus as the search sees it: its question is held as the title (the sort reads it), the rest is
 * read from the entry, which writes a startup's answer when asked (agent-queries.ts).
 */
class AnswerDocument implements SearchDocument {
  readonly title: string;

  constructor(private readonly entry: AnswerEntry) {
    this.title = entry.question;
  }

  get type(): 'faq' | 'answer' {
    return this.entry.source === 'faq' ? 'faq' : 'answer';
  }

  get url(): string {
    return this.entry.url;
  }

  get text(): string {
    return this.entry.answer;
  }

  get keywords(): string {
    return this.entry.keywords.join(' ');
  }
}

/** `searchDocuments` in steps (see steps.ts); the answer corpus it includes is built in steps too. */
function* searchDocumentSteps(
  snapshot: Snapshot,
  baseUrl: string,
  blog: readonly BlogPost[] = loadBlogPosts(),
): Steps<SearchDocument[]> {
  const urls = siteUrls(baseUrl);
  const period = snapshot.period.name;
  const docs: SearchDocument[] = [];
  const fiction = snapshot.synthetic ? ' Fictional startup from the synthetic demo dataset.' : '';
  // Pages about demo startups say so in the title, so a hit shows it whatever its snippet.
  const label = snapshot.synthetic ? ' (synthetic demo data)' : '';
  const demoNote = snapshot.synthetic ? ' Synthetic demo data: fictional startups with generated activity.' : '';

  const startupPages: StartupPages = { urls, period, fiction };
  yield* inChunks(snapshot.startups, DOCUMENT_CHUNK, (s) =>
    docs.push(new StartupDocument(startupPages, s, `${s.startup.name}${label}`)),
  );
  for (const info of sectors) {
    const list = snapshot.bySector.get(info.slug) ?? [];
    docs.push({
      type: 'sector',
      url: urls.sector(info.slug),
      title: `${info.name} startups${label}`,
      text: `${info.description} ${list.length} tracked startups in ${period}, led by ${list
        .slice(0, 5)
        .map((s) => s.startup.name)
        .join(', ')}.${demoNote}`,
      keywords: info.slug.replace(/-/g, ' '),
      name: info.name,
    });
  }
  for (const post of blog) {
    docs.push({
      type: 'blog',
      url: urls.blog(post.slug),
      title: post.title,
      text: `${post.summary} ${markdownToText(post.body)}`,
      keywords: post.tags.join(' '),
    });
  }
  for (const [a, b] of comparisons(snapshot)) {
    docs.push({
      type: 'comparison',
      url: urls.compare(a.login, b.login),
      title: `${a.startup.name} vs ${b.startup.name}${label}`,
      text: `${comparisonSummary(a, b, period)}${demoNote}`,
      keywords: `${a.login} ${b.login} compare versus`,
    });
  }
  const corpus = yield* answerCorpus.warm(snapshot, baseUrl);
  yield* inChunks(corpus.entries, DOCUMENT_CHUNK, (entry) => docs.push(new AnswerDocument(entry)));
  for (const finding of researchFindings(snapshot, baseUrl)) {
    docs.push({
      type: 'research',
      url: finding.url,
      title: finding.title,
      text: finding.claim,
      keywords: `research ${finding.slug.replace(/-/g, ' ')}`,
    });
  }
  // Equal scores keep document order: make it meaningful and stable (by type, then title) rather than build order.
  // The sort is stable, so documents of the same type and title keep their build order. In steps: at 100,000
  // startups it is a few hundred thousand collator comparisons.
  const typeOrder = new Map(TYPE_ORDER.map((t, i) => [t, i]));
  return yield* sortInSteps(
    docs,
    (x, y) => typeOrder.get(x.type)! - typeOrder.get(y.type)! || titleOrder.compare(x.title, y.title),
  );
}

/** The order of equally scored hits: answers and FAQs first, then the data pages, then articles. */
const TYPE_ORDER: readonly SearchDocument['type'][] = [
  'answer',
  'faq',
  'startup',
  'sector',
  'research',
  'comparison',
  'blog',
];

/** The site search of the snapshot's period, built once per period. */
export const siteSearch = derivePerBaseInSteps(function* (snapshot, baseUrl) {
  const documents = yield* searchDocumentSteps(snapshot, baseUrl);
  yield;
  return yield* SiteSearch.build(documents);
});
