import { validatedCompanies } from '../../core/scout/companies.js';
import { FORMULA_TEXT, MIN_LEAD_DAYS, scoreStars, type Star } from '../../core/scout/score.js';
import type { ScoutReceipts } from '../../schemas/scout.js';
import { html, type SafeHtml } from '../html.js';
import type { PageInput } from '../layout.js';

/** What the status line says while a look-up runs (assets/busy.js adds the seconds waited). */
const BUSY = 'Asking GitHub for the public stars of {name}: this takes a few seconds, up to about 15 for many stars.';

const busyLine = html`<p id="scout-busy" class="notice" role="status" data-busy-line hidden></p>`;

const form = (value = '') =>
  html`<form action="/scout" method="get" data-busy="${BUSY}" data-busy-status="scout-busy">
    <p>
      <label for="username">GitHub username</label><br />
      <input
        id="username"
        type="text"
        name="username"
        value="${value}"
        maxlength="39"
        autocomplete="off"
        spellcheck="false"
      />
      <button type="submit">See the receipts</button>
    </p>
    ${busyLine}
  </form>`;

const DAY_MS = 86_400_000;
const dayBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/**
 * A worked example computed by the real formula over the real list of validated companies, for a hypothetical user
 * (no GitHub call, so it shows even when GitHub cannot be reached): two early stars and one after the news.
 */
function workedExample(): SafeHtml {
  const { companies, byOrg } = validatedCompanies();
  const ipo = companies.find((c) => c.milestone === 'ipo');
  const acquired = companies.find((c) => c.milestone === 'acquisition');
  const late = companies.find((c) => c !== ipo && c !== acquired);
  if (!ipo || !acquired || !late) return html``;
  const star = (c: typeof ipo, at: string): Star => ({
    at: `${at}T12:00:00Z`,
    owner: c.org,
    name: c.repository,
    language: null,
    topics: [],
  });
  const stars = [
    star(ipo, dayBefore(ipo.date, 730)),
    star(acquired, dayBefore(acquired.date, 180)),
    star(late, dayBefore(late.date, -10)),
  ];
  const result = scoreStars(stars, { companies, byOrg });
  return html`<h2 id="example">A worked example</h2>
    <p>
      A hypothetical user who starred these repositories (the score is computed here by the same formula and list as a
      real look-up):
    </p>
    <ul>
      ${result.calls.map(
        (c) =>
          html`<li>
            <code>${c.repository}</code> on ${c.starredAt.slice(0, 10)}, ${c.leadDays} days before ${c.company}'s
            ${c.milestone.type === 'ipo' ? 'IPO' : c.milestone.type} (${c.milestone.date}): an early call worth
            ${c.points} points;
          </li>`,
      )}
      <li>
        <code>${late.org}/${late.repository}</code> on ${dayBefore(late.date, -10)}, after ${late.company}'s milestone
        (${late.date}): too late to count (a star must come ${MIN_LEAD_DAYS} days or more before).
      </li>
    </ul>
    <p>
      ${result.points} points give a Scout Score of <strong>${result.score}</strong> (100 × points ÷ (points + 100)),
      rank <strong>${result.rank}</strong>.
    </p>
    <details>
      <summary>The formula</summary>
      <p>${FORMULA_TEXT}</p>
    </details>`;
}

/** What the page knows about GitHub before a look-up: whether a token is set, and the last time it failed. */
export interface ScoutStatus {
  tokenConfigured: boolean;
  /** When a look-up last found GitHub unreachable (reset by a look-up that succeeds). */
  unreachableSince?: Date | undefined;
}

/** Said before the form: a look-up asks GitHub live, so what can make it slow or fail is said at once. */
function statusNotice(status: ScoutStatus) {
  if (status.unreachableSince) {
    return html`<p class="notice" role="note">
      <strong>GitHub could not be reached</strong> at the last look-up
      (${status.unreachableSince.toISOString().slice(11, 16)} UTC), so a new look-up will probably fail too. Receipts
      looked up before are kept for a while and still answer. Meanwhile the rest of the site works:
      <a href="/startups">the tracked startups</a>, <a href="/ask">answers</a> and <a href="/docs">the API</a>.
    </p>`;
  }
  return html`<p class="muted">
    A look-up asks GitHub for the user's public stars live: it usually takes a few seconds, up to about 15 for a user
    with many stars.
    ${
      status.tokenConfigured
        ? ''
        : 'This server has no GitHub token, so GitHub allows it about 60 requests an hour; when they are used up a look-up says so and when to try again.'
    }
  </p>`;
}

/** /scout: what the Scout Score is, and a form to look a user up. */
export function scoutIndexPage(status: ScoutStatus = { tokenConfigured: true }): PageInput {
  return {
    path: '/scout',
    title: 'Scout Score',
    description:
      'How early did a GitHub user star the companies that later made it? Scout Score receipts from public stars.',
    body: html`<h1>Scout Score</h1>
      <p class="lede">
        How early did a GitHub user star the companies that later reached a validated milestone (an IPO, an acquisition,
        a priced round)? The score (0–100) is computed from the user's public stars and their dates.
      </p>
      ${statusNotice(status)} ${form()}
      <p>
        To try it, look up
        <a href="/scout/octocat" data-busy="${BUSY}" data-busy-name="octocat" data-busy-status="scout-busy">octocat</a>,
        GitHub's mascot account. A result shows the score, its rank, the companies the user starred before their
        milestone (with the source of each milestone), and a card to share.
      </p>
      ${workedExample()}
      <p>As JSON: <code>/api/receipts/{username}</code>; as a badge: <code>/api/badge/scout/{username}/svg</code>.</p>`,
    synthetic: false,
    busy: true,
  };
}

/** /scout/{username}: score, rank, early calls, personality and the shareable card. */
export function scoutReceiptsPage(r: ScoutReceipts): PageInput {
  const u = encodeURIComponent(r.username);
  return {
    path: `/scout/${u}`,
    title: `${r.username}: Scout Score ${r.score} (${r.rank})`,
    description: `${r.username} scores ${r.score} (${r.rank}) with ${r.stats.earlyCalls} early calls on ${r.stats.validatedCompanies} validated companies.`,
    body: html`<p><a href="/scout">Scout Score</a> › ${r.username}</p>
      <h1>${r.username}: ${r.score} <span class="badge">${r.rank}</span></h1>
      <p class="lede">${r.personality}</p>
      <dl class="stats">
        <div>
          <dt>Early calls</dt>
          <dd>${r.stats.earlyCalls}</dd>
        </div>
        <div>
          <dt>Starred after the milestone</dt>
          <dd>${r.stats.lateStars}</dd>
        </div>
        <div>
          <dt>Points</dt>
          <dd>${r.stats.points}</dd>
        </div>
        <div>
          <dt>Stars analysed</dt>
          <dd>${r.stats.starsAnalysed}${r.stats.starsTruncated ? '+' : ''}</dd>
        </div>
      </dl>
      <h2>Top early calls</h2>
      ${
        r.topEarlyCalls.length
          ? html`<div class="table-scroll">
              <table>
                <caption>
                  Validated companies starred before their milestone, most points first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Company</th>
                    <th scope="col">Starred</th>
                    <th scope="col">Milestone</th>
                    <th scope="col" class="num">Lead (days)</th>
                    <th scope="col" class="num">Points</th>
                  </tr>
                </thead>
                <tbody>
                  ${r.topEarlyCalls.map(
                    (c) =>
                      html`<tr>
                        <td>${c.company} <span class="muted">(${c.repository})</span></td>
                        <td>${c.starredAt.slice(0, 10)}</td>
                        <td>
                          <a href="${c.milestone.source}" rel="nofollow">${c.milestone.detail}</a> (${c.milestone.date})
                        </td>
                        <td class="num">${c.leadDays}</td>
                        <td class="num">${c.points}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : html`<p class="muted">No validated company starred early enough yet.</p>`
      }
      <h2>Share</h2>
      <p>
        <img
          src="/api/scout/card/${u}/svg"
          width="640"
          height="320"
          alt="Scout Score card of ${r.username}: ${r.score}, ${r.rank}"
          class="card-img"
        />
      </p>
      <p>
        Card: <a href="${r.cardUrl}">${r.cardUrl}</a> · Badge: <a href="${r.badgeUrl}">${r.badgeUrl}</a> · JSON:
        <a href="/api/receipts/${u}">/api/receipts/${r.username}</a>
      </p>
      <h2>How it is computed</h2>
      <p>${r.formula}</p>
      ${form(r.username)}`,
    ogType: 'profile',
    synthetic: false,
    noindex: true,
  };
}

/** A look-up that could not be answered (invalid or unknown user, GitHub unavailable), with the form to try again. */
export function scoutProblemPage(username: string, status: number, detail: string): PageInput {
  const unavailable = status >= 500 || status === 429;
  return {
    path: '/scout',
    title: status === 404 ? 'No such GitHub user' : 'Scout Score unavailable',
    description: detail,
    body: html`<h1>
        ${status === 404 ? 'No such GitHub user' : status === 400 ? 'Not a GitHub username' : 'Try again shortly'}
      </h1>
      <p class="lede">${detail}</p>
      ${
        unavailable
          ? html`<p>
              The Scout Score needs GitHub, which did not answer this server. What works without it:
              <a href="/startups">the tracked startups</a>, <a href="/ask">questions and answers</a>,
              <a href="/search">search</a> and <a href="/docs">the API</a>.
            </p>`
          : ''
      }
      ${form(username.slice(0, 39))}`,
    synthetic: false,
    noindex: true,
    busy: true,
  };
}
