import { DATA_LICENSE } from '../domain/license.js';
import { html, jsonLdScript, type SafeHtml } from './html.js';

export const SITE_NAME = 'Signal Service';

/** Paths of the static assets, each carrying a content hash so it can be cached for a year. */
export interface AssetPaths {
  css: string;
  sortScript: string;
  chartScript: string;
  busyScript: string;
  /** Shortens the synthetic-data notice after a first visit; loaded in the head so the page is drawn once. */
  noticeScript: string;
  /** Submits a week picker as soon as a week is chosen (forms marked data-autosubmit). */
  pickerScript: string;
  /** Puts a "Copy" button beside each request to copy (.copy-box). */
  copyScript: string;
  icon: string;
  font: string;
}

/** What frames a page: the base URL its canonical link starts with, and the site's asset paths. */
export interface SiteFrame {
  baseUrl: string;
  assets: AssetPaths;
}

export interface PageInput {
  /** Path of the page on this origin, e.g. /sectors/robotics (its canonical URL is baseUrl + path). */
  path: string;
  title: string;
  /** One sentence: the meta description and the OpenGraph description. */
  description: string;
  body: SafeHtml;
  /** schema.org JSON-LD for the page, when schema.org has a type for it. */
  jsonLd?: Record<string, unknown> | undefined;
  ogType?: 'website' | 'article' | 'profile';
  /** True when the page shows data of the synthetic demo dataset: a notice says so at the top. */
  synthetic: boolean;
  /** Which navigation entry is current. */
  section?: NavSection;
  /** Pages that sort a table load the sort script. */
  sortable?: boolean;
  /** Pages with a chart load its tooltip script. */
  charts?: boolean;
  /** Pages with a slow look-up (data-busy form or link) load the progress script. */
  busy?: boolean;
  /** The search query the page answers: kept in the header's search box. */
  query?: string;
  /** Extra head content (the API reference's stylesheet). */
  head?: SafeHtml;
  /** The share image (`og:image`, a 1200×630 PNG on this origin) and its text alternative. */
  image?: { path: string; alt: string } | undefined;
  /** Keep search engines off the page (404s, account pages). */
  noindex?: boolean;
  /**
   * The canonical path when it is not `path`: a page per typed query names the page it duplicates (an asked
   * question its answer's page, a search its search page), so search engines index that one instead.
   */
  canonicalPath?: string;
}

export type NavSection =
  'home' | 'startups' | 'sectors' | 'periods' | 'answers' | 'research' | 'blog' | 'docs' | 'pricing';

const NAV: readonly [NavSection, string, string][] = [
  ['home', '/', 'Home'],
  ['startups', '/startups', 'Startups'],
  ['sectors', '/sectors', 'Sectors'],
  ['periods', '/periods', 'Archive'],
  ['answers', '/ask', 'Ask'],
  ['research', '/research', 'Research'],
  ['blog', '/blog', 'Blog'],
  ['docs', '/docs', 'API'],
  ['pricing', '/pricing', 'Pricing'],
];

/**
 * The synthetic-data notice. In full on a first visit; once a visit is remembered (`assets/notice.js`, localStorage,
 * nothing the server reads) or the reader dismisses it, one line that still says what the data is.
 */
export const SYNTHETIC_BANNER = html`<div class="notice synthetic" role="note">
  <p>
    <strong>Synthetic demo data.</strong>
    <span class="notice-long"
      >The startups on this page are fictional and their activity is generated; they are not real companies or real
      GitHub data. Real figures come from running the pipeline against the GitHub API.</span
    ><span class="notice-short">Not real companies.</span>
  </p>
  <button type="button" class="notice-dismiss" data-notice-dismiss>Got it</button>
</div>`;

const navList = (page: PageInput) =>
  html`<ul>
    ${NAV.map(
      ([key, href, label]) =>
        html`<li>
          <a href="${href}" ${page.section === key ? html` aria-current="page"` : ''}>${label}</a>
        </li>`,
    )}
  </ul>`;

const searchForm = (page: PageInput, id: string) =>
  html`<form role="search" action="/search" method="get" aria-label="Site search">
    <label class="visually-hidden" for="${id}">Search</label>
    <input
      id="${id}"
      type="search"
      name="q"
      maxlength="280"
      value="${page.query ?? ''}"
      placeholder="Startups, sectors, answers…"
    />
    <button type="submit">Search</button>
  </form>`;

/** The one layout every page uses: landmarks, a skip link, navigation, the page, and a footer. */
export function layout(baseUrl: string, assets: AssetPaths, page: PageInput): string {
  const canonical = `${baseUrl}${page.canonicalPath ?? page.path}`;
  const title = page.path === '/' ? page.title : `${page.title} · ${SITE_NAME}`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <meta name="description" content="${page.description}" />
        <link rel="canonical" href="${canonical}" />
        ${page.noindex ? html`<meta name="robots" content="noindex" />` : ''}
        <meta property="og:site_name" content="${SITE_NAME}" />
        <meta property="og:type" content="${page.ogType ?? 'website'}" />
        <meta property="og:title" content="${page.title}" />
        <meta property="og:description" content="${page.description}" />
        <meta property="og:url" content="${canonical}" />
        ${
          page.image
            ? html`<meta property="og:image" content="${baseUrl}${page.image.path}" />
                <meta property="og:image:type" content="image/png" />
                <meta property="og:image:width" content="1200" />
                <meta property="og:image:height" content="630" />
                <meta property="og:image:alt" content="${page.image.alt}" />
                <meta name="twitter:card" content="summary_large_image" />`
            : html`<meta name="twitter:card" content="summary" />`
        }
        <meta name="color-scheme" content="light dark" />
        <link rel="preload" href="${assets.font}" as="font" type="font/woff2" crossorigin />
        <link rel="stylesheet" href="${assets.css}" />
        <link rel="alternate" type="application/rss+xml" title="${SITE_NAME} weekly feed" href="/feed.xml" />
        <link rel="alternate" type="application/json" title="Signals (JSON)" href="/api/signals.json" />
        ${page.synthetic ? html`<script src="${assets.noticeScript}"></script>` : ''} ${page.head ?? ''}
        ${page.jsonLd ? jsonLdScript(page.jsonLd) : ''}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <div class="wrap">
            <a class="brand" href="/">${SITE_NAME}</a>
            <nav class="nav-wide" aria-label="Main">${navList(page)}</nav>
            <div class="nav-wide">${searchForm(page, 'site-search')}</div>
            <details class="nav-narrow">
              <summary>Menu</summary>
              <div class="menu">
                <nav aria-label="Main">${navList(page)}</nav>
                ${searchForm(page, 'site-search-menu')}
              </div>
            </details>
          </div>
        </header>
        <main id="main" class="wrap">${page.synthetic ? SYNTHETIC_BANNER : ''} ${page.body}</main>
        <footer class="site">
          <div class="wrap">
            <p>
              Data licensed <a href="${DATA_LICENSE.url}" rel="license">${DATA_LICENSE.name}</a>, attribution required.
              ${page.synthetic ? 'The dataset served here is synthetic demo data.' : ''}
            </p>
            <ul>
              <li><a href="/methodology">Methodology</a></li>
              <li><a href="/glossary">Glossary</a></li>
              <li><a href="/markets">Markets</a></li>
              <li><a href="/faq">FAQ</a></li>
              <li><a href="/scout">Scout Score</a></li>
              <li><a href="/changelog">Changelog</a></li>
              <li><a href="/agents/credits">Deep Signal credits</a></li>
              <li><a href="/api/openapi.json">OpenAPI</a></li>
              <li><a href="/feed.xml">RSS</a></li>
              <li><a href="/llms.txt">llms.txt</a></li>
            </ul>
          </div>
        </footer>
        ${page.sortable ? html`<script src="${assets.sortScript}" defer></script>` : ''}
        ${page.charts ? html`<script src="${assets.chartScript}" defer></script>` : ''}
        ${page.busy ? html`<script src="${assets.busyScript}" defer></script>` : ''}
        ${page.body.value.includes('data-autosubmit') ? html`<script src="${assets.pickerScript}" defer></script>` : ''}
        ${page.body.value.includes('class="copy-box"') ? html`<script src="${assets.copyScript}" defer></script>` : ''}
      </body>
    </html> `.value;
}
