import { siteSearch } from '../../core/search/documents.js';
import { SEARCH_TYPES, type SearchType } from '../../schemas/answers.js';
import { sitePath, type PageContext } from '../context.js';
import { html } from '../html.js';
import type { PageInput } from '../layout.js';

export const SEARCH_QUERY_MAX = 280;
const RESULTS = 20;

/** /search?q=: the same index as /api/llms-search, rendered. */
export function searchPage(ctx: PageContext, query: string, type: SearchType | undefined): PageInput {
  const q = query.trim().slice(0, SEARCH_QUERY_MAX);
  const result = q ? siteSearch(ctx.snapshot, ctx.baseUrl).search(q, { type, limit: RESULTS }) : undefined;
  const body = html`<h1>Search</h1>
    <form role="search" action="/search" method="get">
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
              “${q}”${result.total > RESULTS ? `, the first ${RESULTS} shown` : ''}.
            </p>
            <ol class="results">
              ${result.hits.map(
                (h) =>
                  html`<li>
                    <a href="${sitePath(h.url, ctx.baseUrl)}">${h.title}</a> <span class="badge">${h.type}</span
                    ><br /><span class="muted">${h.snippet}</span>
                  </li>`,
              )}
            </ol>
            ${result.total === 0 ? html`<p>Nothing matched. Try a sector such as <a href="/search?q=robotics">robotics</a>, or browse <a href="/sectors">the sectors</a>.</p>` : ''}
            <p class="muted">
              As JSON: <a href="/api/llms-search?q=${encodeURIComponent(q)}">/api/llms-search?q=${q}</a>
            </p>`
        : ''
    }`;
  return {
    path: q ? `/search?q=${encodeURIComponent(q)}` : '/search',
    title: q ? `Search: ${q}` : 'Search',
    description: 'Search the startups, sectors, answers, research findings and posts of the Signal Service.',
    body,
    synthetic: ctx.snapshot.synthetic,
    noindex: Boolean(q),
  };
}

/** The API reference: Swagger UI served from this origin, reading /api/openapi.json. */
export function docsPage(assets: { css: string; bundle: string; init: string }): PageInput {
  const body = html`<h1>API reference</h1>
    <p class="lede">
      Every endpoint, generated from <a href="/api/openapi.json">the OpenAPI document</a>. Free endpoints need no key.
    </p>
    <div id="api-reference" class="api-reference">
      <p class="muted">
        The interactive reference needs JavaScript; the raw document is at
        <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
    </div>
    <script src="${assets.bundle}" defer></script>
    <script src="${assets.init}" defer></script>`;
  return {
    path: '/docs',
    title: 'API reference',
    description:
      'Reference of the Signal Service API: signals, answers, search, diligence, scout, markets, Deep Signal and agent surfaces.',
    body,
    synthetic: false,
    section: 'docs',
    head: html`<link rel="stylesheet" href="${assets.css}" />`,
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
