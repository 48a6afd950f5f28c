import { bestAnswer, type BestAnswer } from '../../core/answers/answer.js';
import { understand } from '../../core/answers/understand.js';
import { MIN_CONFIDENCE } from '../../core/answers/confidence.js';
import { diligenceDossier } from '../../core/diligence/dossier.js';
import type { AcquisitionFact, BackingFact } from '../../schemas/answers.js';
import type { Startup } from '../../schemas/signals.js';
import { dossierPath, sitePath, startupPath, type PageContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import type { PageInput } from '../layout.js';
import { answerBody } from './answer-view.js';
import { startupHit, startupHitBlock } from './startup-hit.js';

export const ASK_QUERY_MAX = 280;
/** Answers shown for a question: the best one in full, the others as "other answers". */
const ASK_LIMIT = 5;

const EXAMPLES = [
  'Which startups are trending this week?',
  'How is commit velocity measured?',
  'Who acquired GitHub?',
  'Which robotics startups are accelerating?',
];

export function askForm(q = '', headingId?: string): SafeHtml {
  return html`<form
    class="ask"
    role="search"
    action="/ask"
    method="get"
    ${headingId ? html`aria-labelledby="${headingId}"` : ''}
  >
    <p>
      <label for="ask-q">Your question</label>
    </p>
    <div class="row">
      <input
        id="ask-q"
        type="search"
        name="q"
        value="${q}"
        maxlength="${ASK_QUERY_MAX}"
        required
        placeholder="e.g. Which startups are trending this week?"
      />
      <button type="submit">Ask</button>
    </div>
  </form>`;
}

/**
 * /ask?q=: a question answered by the answer service /api/answer and /api/ask use (`understand` over the answer
 * corpus), with the answer's facts and their sources, and the other candidate answers. Nothing is answered here that
 * the API would not answer.
 */
export function askPage(ctx: PageContext, query: string): PageInput {
  const { snapshot, baseUrl } = ctx;
  const q = query.trim().slice(0, ASK_QUERY_MAX);
  const link = (url: string, text: string) => html`<a href="${sitePath(url, baseUrl)}">${text}</a>`;
  let result: SafeHtml = html``;
  let canonicalPath = '/ask';
  if (q) {
    const understood = understand(snapshot, baseUrl, q, ASK_LIMIT);
    if (understood.kind === 'answers' && understood.hits.length) {
      const [best, ...others] = understood.hits;
      const e = best!.entry;
      canonicalPath = sitePath(e.url, baseUrl);
      result = html`<section class="answer" aria-labelledby="answer-h">
          <h2 id="answer-h">${e.question}</h2>
          ${answerBody(ctx, e)}
          <p class="muted">The answer's own page: ${link(e.url, e.question)}.</p>
        </section>
        ${
          others.length
            ? html`<h2>Other answers</h2>
                <ul>
                  ${others.map((o) => html`<li>${link(o.entry.url, o.entry.question)}</li>`)}
                </ul>`
            : ''
        }
        ${
          e.related.length
            ? html`<h2>Related questions</h2>
                <ul>
                  ${e.related.map((r) => html`<li>${link(r.url, r.question)}</li>`)}
                </ul>`
            : ''
        }`;
    } else {
      // Why there is no answer is decided once, by the answer service of /api/answer.
      const miss = bestAnswer(snapshot, baseUrl, q);
      if (!miss.found) result = html`${startupHitBlock(startupHit(ctx, q))}${noAnswer(miss, q, link)}`;
    }
  }
  const body = html`<h1 id="ask-h">Ask a question</h1>
    <p class="lede">
      Answers come from the same answer service as the API's <code>/api/answer</code>: each with the facts behind it and
      a link to each source. A question the service cannot answer well is said so, never guessed.
    </p>
    ${askForm(q, 'ask-h')} ${result}
    ${
      q
        ? html`<p class="muted">As JSON: <a href="/api/ask?q=${encodeURIComponent(q)}">/api/ask?q=${q}</a></p>`
        : html`<h2>Try</h2>
            <ul>
              ${EXAMPLES.map((e) => html`<li><a href="/ask?q=${encodeURIComponent(e)}">${e}</a></li>`)}
            </ul>
            <p>Or read <a href="/faq">the FAQ</a>, by topic.</p>`
    }`;
  return {
    path: q ? `/ask?q=${encodeURIComponent(q)}` : '/ask',
    title: q ? `Ask: ${q}` : 'Ask a question',
    description: 'Ask about tracked startups, sectors, acquisitions and the method; answers cite their sources.',
    body,
    synthetic: snapshot.synthetic,
    section: 'answers',
    // A question's page duplicates its answer's page (or, unanswered, the ask page): that one is indexed.
    canonicalPath,
  };
}

function sourcesOf(fact: { sources: readonly { url: string; kind: string; publisher: string }[] }): SafeHtml {
  return html`${fact.sources.map(
    (s, i) =>
      html`${i ? ', ' : ''}<a href="${s.url}" rel="nofollow">${s.publisher}</a> <span class="muted">(${s.kind})</span>`,
  )}`;
}

function dealTable(
  caption: string,
  facts: readonly AcquisitionFact[],
  other: (f: AcquisitionFact) => string,
): SafeHtml {
  return html`<div class="table-scroll">
    <table class="stack">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Company</th>
          <th scope="col">Announced</th>
          <th scope="col">Completed</th>
          <th scope="col">Value</th>
          <th scope="col">Sources</th>
        </tr>
      </thead>
      <tbody>
        ${facts.map(
          (f) =>
            html`<tr>
              <td class="lead"><a href="${dossierPath(other(f))}">${other(f)}</a></td>
              <td data-label="Announced" class="nowrap">${f.announced}</td>
              <td data-label="Completed" class="nowrap">${f.completed ?? 'not recorded'}</td>
              <td data-label="Value">${f.value ?? 'undisclosed'}</td>
              <td data-label="Sources">
                ${sourcesOf(f)}${f.note ? html`<br /><span class="muted">${f.note}</span>` : ''}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function backersTable(facts: readonly BackingFact[]): SafeHtml {
  return html`<div class="table-scroll">
    <table class="stack">
      <caption>
        Publicly disclosed backers
      </caption>
      <thead>
        <tr>
          <th scope="col">Investor</th>
          <th scope="col">Round</th>
          <th scope="col">Announced</th>
          <th scope="col">Sources</th>
        </tr>
      </thead>
      <tbody>
        ${facts.map(
          (f) =>
            html`<tr>
              <td class="lead"><a href="${dossierPath(f.investor)}">${f.investor}</a></td>
              <td data-label="Round">${f.round}</td>
              <td data-label="Announced" class="nowrap">${f.announced}</td>
              <td data-label="Sources">${sourcesOf(f)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** A dossier page with its status, or (for another form of a name: alias, slug, typo) the canonical path. */
export type DossierPage = { status: 200 | 404; page: PageInput } | { redirect: string };

/**
 * /diligence/{name}: the dossier the diligence service gives /api/diligence.json for `name` (acquisitions, backers,
 * the published signal, the sources), as a page. A name outside the corpus is a 404 with its "did you mean".
 */
export function dossierPage(ctx: PageContext, name: string): DossierPage {
  const { snapshot, baseUrl } = ctx;
  const result = diligenceDossier(snapshot, baseUrl, name.trim().slice(0, 100));
  const d = result.body.dossier;
  const json = `/api/diligence.json?company=${encodeURIComponent(found(result) ? d.entity : name)}`;
  if (!result.found) {
    const candidates = result.body.candidates ?? [];
    return {
      status: 404,
      page: {
        path: dossierPath(name),
        title: `No dossier for ${name}`,
        description: d.notes[0] ?? 'No dossier for this name.',
        body: html`<p><a href="/ask">Ask</a> › Diligence</p>
          <h1>No dossier for “${name}”</h1>
          ${d.notes.map((n) => html`<p>${n}</p>`)}
          ${
            candidates.length
              ? html`<h2>Did you mean</h2>
                  <ul>
                    ${candidates.map((c) => html`<li><a href="${sitePath(c.url, baseUrl)}">${c.name}</a> <span class="muted">(${c.why})</span></li>`)}
                  </ul>`
              : ''
          }
          <p><a href="/search?q=${encodeURIComponent(name)}">Search the site for “${name}”</a></p>`,
        synthetic: false,
        noindex: true,
      },
    };
  }
  if (d.entity !== name) return { redirect: dossierPath(d.entity) };
  const signal = d.signal as Startup | null;
  const tracked = signal ? snapshot.startups.find((s) => s.startup.name === signal.name) : undefined;
  const documented = d.acquiredBy.length + d.acquisitionsMade.length + d.backedBy.length > 0;
  // Where the dossier sits: under its startup's page for a tracked startup, under the answers otherwise.
  const crumbs = tracked
    ? html`<nav aria-label="Breadcrumb" class="crumbs">
        <a href="/startups">Startups</a> › <a href="${startupPath(tracked)}">${tracked.startup.name}</a> › Dossier
      </nav>`
    : html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/faq">Answers</a> › Diligence dossier</nav>`;
  const body = html`${crumbs}
    <h1>${d.entity}: diligence dossier</h1>
    ${
      documented
        ? html`<p class="lede">
              Documented acquisitions, acquirers and publicly disclosed backers, each from a press release, a regulatory
              filing or both sides' disclosures${signal ? ', and the published engineering signal' : ''}.
            </p>
            <h2 id="acquired-by">Acquired by</h2>
            ${d.acquiredBy.length ? dealTable(`Acquisitions of ${d.entity}`, d.acquiredBy, (f) => f.acquirer) : html`<p class="muted">None documented.</p>`}
            <h2 id="acquisitions">Acquisitions made</h2>
            ${
              d.acquisitionsMade.length
                ? dealTable(`Acquisitions made by ${d.entity}`, d.acquisitionsMade, (f) => f.target)
                : html`<p class="muted">None documented.</p>`
            }
            <h2 id="backers">Backers</h2>
            ${d.backedBy.length ? backersTable(d.backedBy) : html`<p class="muted">None documented.</p>`}`
        : html`<p class="lede" id="nothing-documented">
            Nothing is documented for ${d.entity}: no acquisition it made or underwent and no disclosed backer, in any
            press release or filing the service
            holds${signal && snapshot.synthetic ? ' (it is a fictional startup of the synthetic demo data)' : ''}.
            ${tracked ? html`Its engineering signal is on <a href="${startupPath(tracked)}">its page</a>.` : ''}
          </p>`
    }
    <h2 id="signal">Engineering signal</h2>
    ${
      signal
        ? html`<p>
            ${signal.signalType}: ${signal.commitVelocity14d} commits in 14 days (${signal.commitVelocityChange}),
            ${signal.contributors} contributors (${signal.contributorGrowth}), ${snapshot.period.name}.
            ${tracked ? html`<a href="${startupPath(tracked)}">${signal.name}'s page</a>.` : ''}
          </p>`
        : html`<p class="muted">Not a tracked startup: no engineering signal is published for ${d.entity}.</p>`
    }
    <h2 id="notes">Notes</h2>
    <ul>
      ${d.notes.map((n) => html`<li>${n}</li>`)}
    </ul>
    <h2 id="sources">Sources</h2>
    <ul>
      ${result.body.citation.map(
        (c) =>
          html`<li>
            <a href="${sitePath(c.url, baseUrl)}" ${c.url.startsWith(baseUrl) ? '' : html`rel="nofollow"`}>${c.name}</a>
          </li>`,
      )}
    </ul>
    <p class="muted">As JSON: <a href="${json}">${json}</a></p>`;
  return {
    status: 200,
    page: {
      path: dossierPath(d.entity),
      title: `${d.entity}: diligence dossier`,
      description: `Documented acquisitions, acquirers and disclosed backers of ${d.entity}, with their sources.`,
      body,
      jsonLd: result.body as unknown as Record<string, unknown>,
      synthetic: Boolean(signal) && snapshot.synthetic,
      section: 'answers',
    },
  };
}

function found(result: { found: boolean }): boolean {
  return result.found;
}

/** The page's account of a question without an answer: the answer service's reason, with what to try instead. */
function noAnswer(
  miss: Extract<BestAnswer, { found: false }>,
  q: string,
  link: (url: string, text: string) => SafeHtml,
): SafeHtml {
  const list = (items: readonly { url: string; text: string; note?: string }[]) =>
    html`<ul>
      ${items.map((i) => html`<li>${link(i.url, i.text)}${i.note ? html` <span class="muted">(${i.note})</span>` : ''}</li>`)}
    </ul>`;
  switch (miss.reason) {
    case 'not-tracked':
    case 'ambiguous':
      return html`<div class="answer" role="status">
        <p>${miss.detail}</p>
        ${
          miss.candidates?.length
            ? html`<p>Did you mean:</p>
                ${list(miss.candidates.map((c) => ({ url: c.url, text: c.name, note: c.why })))}`
            : ''
        }
      </div>`;
    case 'no-sector':
      return html`<div class="answer" role="status">
        <p>${miss.detail}</p>
        <p>Browse <a href="/sectors">the sectors</a>.</p>
      </div>`;
    case 'out-of-scope':
      return html`<div class="answer" role="status">
        <p>${miss.detail}</p>
        <p>What it can tell you instead:</p>
        ${list(miss.suggestions.map((r) => ({ url: r.url, text: r.question })))}
      </div>`;
    case 'no-match':
      return html`<div class="answer" role="status">
        <p>
          No answer matches this question closely enough (confidence of at least ${MIN_CONFIDENCE}); the service does
          not guess.
        </p>
        ${
          miss.suggestions.length
            ? html`<p>The nearest questions it can answer:</p>
                ${list(miss.suggestions.map((r) => ({ url: r.url, text: r.question })))}`
            : ''
        }
        <p>Or <a href="/search?q=${encodeURIComponent(q)}">search the site for “${q}”</a>.</p>
      </div>`;
  }
}
