import { siteSearch } from '../../core/search/documents.js';
import { SEARCH_TYPES, type SearchType } from '../../schemas/answers.js';
import { diligenceIndex, subjectName } from '../../core/diligence/dossier.js';
import { dossierPath, sitePath, type PageContext } from '../context.js';
import { html } from '../html.js';
import type { PageInput } from '../layout.js';
import { startupHit, startupHitBlock } from './startup-hit.js';
import { documentsDeals } from './dossier-facts.js';

export const SEARCH_QUERY_MAX = 280;
export const SEARCH_RESULTS_PER_PAGE = 20;
/** Pages of results a visitor can page through (the index ranks at most this many × 20 hits per query). */
export const SEARCH_MAX_PAGE = 25;

/**
 * /search?q=: the same index as /api/llms-search, rendered, 20 hits a page. A query that names a company or fund of
 * the diligence corpus (by the one matching rule) also links to its dossier; a tracked startup the query names, or
 * nearly names, comes before both (startup-hit.ts).
 */
export function searchPage(ctx: PageContext, query: string, type: SearchType | undefined, page = 1): PageInput {
  const { snapshot, baseUrl } = ctx;
  const q = query.trim().slice(0, SEARCH_QUERY_MAX);
  const n = SEARCH_RESULTS_PER_PAGE;
  const at = Math.min(Math.max(1, page), SEARCH_MAX_PAGE);
  const result = q ? siteSearch(snapshot, baseUrl).search(q, { type, limit: at * n }) : undefined;
  const hits = result?.hits.slice((at - 1) * n, at * n) ?? [];
  const pages = result ? Math.min(SEARCH_MAX_PAGE, Math.ceil(result.total / n)) : 0;
  // The strict rule for real names: a near name (Linde, one letter from Linode) is another company, never its dossier.
  const match = q ? diligenceIndex(snapshot, baseUrl).matcher.resolve(q, { typos: false }) : undefined;
  const named = match?.status === 'match' ? subjectName(match.item) : undefined;
  // A dossier with nothing documented (a fictional startup's) is not offered.
  const dossier = named && documentsDeals(ctx, named) ? named : undefined;
  const href = (p: number) =>
    `/search?q=${encodeURIComponent(q)}${type ? `&type=${type}` : ''}${p > 1 ? `&page=${p}` : ''}`;
  const first = (at - 1) * n + 1;
  const body = html`<h1>Search</h1>
    <form role="search" action="/search" method="get" aria-label="Search the site">
      <p>
        <label for="q">Search startups, sectors, answers, research and posts</label><br />
        <input id="q" type="search" name="q" value="${q}" maxlength="${SEARCH_QUERY_MAX}" size="40" />
        <label for="type">in</label>
        <select id="type" name="type">
          <option value="">everything</option>
          ${SEARCH_TYPES.map((t) => html`<option value="${t}" ${t === type ? html` selected` : ''}>${t}</option>`)}
        </select>
        <button type="submit">Search</button>
      </p>
    </form>
    ${
      result
        ? html`<p role="status">
              ${result.total} result${result.total === 1 ? '' : 's'} for
              “${q}”${hits.length ? `; ${first}–${first + hits.length - 1} shown` : ''}.
            </p>
            ${startupHitBlock(startupHit(ctx, q))}
            ${
              dossier
                ? html`<p class="answer">
                    Diligence: <a href="${dossierPath(dossier)}">the dossier of ${dossier}</a> (acquisitions, backers,
                    the signal, sources).
                  </p>`
                : ''
            }
            <ol class="results" start="${first}">
              ${hits.map(
                (h) =>
                  html`<li>
                    <a href="${sitePath(h.url, baseUrl)}">${h.title}</a> <span class="badge">${h.type}</span><br /><span
                      class="muted"
                      >${h.snippet}</span
                    >
                  </li>`,
              )}
            </ol>
            ${
              pages > 1
                ? html`<nav aria-label="Result pages">
                    <ul class="pager">
                      ${at > 1 ? html`<li><a href="${href(at - 1)}" rel="prev">← Previous</a></li>` : ''}
                      <li>Page ${at} of ${pages}</li>
                      ${at < pages ? html`<li><a href="${href(at + 1)}" rel="next">Next →</a></li>` : ''}
                    </ul>
                  </nav>`
                : ''
            }
            ${
              result.total === 0
                ? html`<p>
                    Nothing matched. <a href="/ask?q=${encodeURIComponent(q)}">Ask it as a question</a>, try a sector
                    such as <a href="/search?q=robotics">robotics</a>, or browse <a href="/startups">all startups</a>.
                  </p>`
                : html`<p><a href="/ask?q=${encodeURIComponent(q)}">Ask “${q}” as a question</a> instead.</p>`
            }
            <p class="muted">
              As JSON: <a href="/api/llms-search?q=${encodeURIComponent(q)}">/api/llms-search?q=${q}</a>
            </p>`
        : ''
    }`;
  return {
    path: q ? href(at) : '/search',
    title: q ? `Search: ${q}${at > 1 ? `, page ${at}` : ''}` : 'Search',
    description: 'Search the startups, sectors, answers, research findings and posts of the Signal Service.',
    body,
    synthetic: snapshot.synthetic,
    // Result pages are not pages of their own for search engines: each names the search page as its canonical.
    canonicalPath: '/search',
    query: q,
  };
}

export function notFoundPage(path: string): PageInput {
  const body = html`<h1>Page not found</h1>
    <p class="lede">Nothing lives at <code>${path}</code>.</p>
    <p>Where to go from here:</p>
    <ul>
      <li><a href="/">This week's trending startups</a></li>
      <li><a href="/sectors">All sectors</a> and <a href="/periods">the archive of past weeks</a></li>
      <li><a href="/search">Search</a> for a startup, a sector or a question</li>
      <li><a href="/docs">The API reference</a></li>
    </ul>`;
  return {
    path,
    title: 'Page not found',
    description: 'This page does not exist.',
    body,
    synthetic: false,
    noindex: true,
  };
}
