import type { EvidenceDetails } from '../domain/evidence-links.js';
import { isDemoHost } from './demo-host.js';
import { html, type SafeHtml } from './html.js';

/** At most this many links of one kind on a page; the rest are counted. */
const SHOWN = 12;

/** A link to the GitHub object, or, for the demo's reserved host, its name as text (the address goes nowhere). */
function link(url: string, text: string): SafeHtml {
  return isDemoHost(url) ? html`${text}` : html`<a href="${url}" rel="nofollow">${text}</a>`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function capped<T>(items: readonly T[], render: (item: T) => SafeHtml): SafeHtml {
  const rest = items.length - SHOWN;
  return html`${items.slice(0, SHOWN).map(render)}${rest > 0 ? html`<li class="muted">and ${rest} more</li>` : ''}`;
}

function person(p: EvidenceDetails['people'][number]): SafeHtml {
  const who = p.login && p.url ? link(p.url, p.login) : html`an author without a linked GitHub account`;
  const seen = p.kind === 'returning' && p.lastSeenBefore ? `, last seen before on ${p.lastSeenBefore}` : '';
  const from = p.address === 'organisation' ? ", from the organisation's own e-mail domain" : '';
  return html`<li>
    ${who}: first commit of the window ${p.firstCommit}, ${plural(p.commits, 'commit')} on
    ${plural(p.activeDays, 'day')}${seen}${from}
  </li>`;
}

/**
 * What a label's counts rest on, as links a reader can follow to GitHub: the people by public login (never a name or
 * an e-mail address), the releases, tags and deployments, new repositories, infrastructure files, files moved between
 * languages and frameworks replaced. Nothing when the week recorded none of these (older weeks, quiet weeks).
 */
export function evidenceDetailsSection(d: EvidenceDetails): SafeHtml {
  const outside = d.people.filter((p) => p.kind === 'new' && p.address === 'outside');
  const newRegulars = d.people.filter((p) => p.kind === 'new' && p.address !== 'outside' && p.regular);
  const oneOff = d.people.filter((p) => p.kind === 'new' && p.address !== 'outside' && !p.regular);
  const returning = d.people.filter((p) => p.kind === 'returning');
  const parts: SafeHtml[] = [];
  if (newRegulars.length)
    parts.push(
      html`<h3>New people committing repeatedly</h3>
        <ul>
          ${capped(newRegulars, person)}
        </ul>`,
    );
  if (outside.length)
    parts.push(
      html`<h3>Outside help: new people committing from outside the organisation's addresses (counted apart)</h3>
        <ul>
          ${capped(outside, person)}
        </ul>`,
    );
  if (oneOff.length)
    parts.push(
      html`<h3>One-off contributions (counted apart)</h3>
        <ul>
          ${capped(oneOff, person)}
        </ul>`,
    );
  if (returning.length)
    parts.push(
      html`<h3>Returning contributors (not new)</h3>
        <ul>
          ${capped(returning, person)}
        </ul>`,
    );
  if (d.events.length)
    parts.push(
      html`<h3>Releases, tags and deployments in the window</h3>
        <ul>
          ${capped(d.events, (e) => html`<li>${link(e.url, e.name)} (${e.kind}, ${e.repo}) on ${e.date}</li>`)}
        </ul>`,
    );
  if (d.newRepositories.length)
    parts.push(
      html`<h3>New repositories</h3>
        <ul>
          ${capped(d.newRepositories, (r) => html`<li>${link(r.url, r.name)}</li>`)}
        </ul>`,
    );
  if (d.infrastructurePaths.length)
    parts.push(
      html`<h3>Infrastructure files changed</h3>
        <ul>
          ${capped(d.infrastructurePaths, (p) => html`<li>${link(p.url, p.path)} (${p.repo})</li>`)}
        </ul>`,
    );
  if (d.languageMove)
    parts.push(
      html`<p>${plural(d.languageMove.files, 'file')} moved from ${d.languageMove.from} to ${d.languageMove.to}.</p>`,
    );
  if (d.frameworksReplaced.length)
    parts.push(
      html`<h3>Replaced</h3>
        <ul>
          ${d.frameworksReplaced.map((f) => html`<li>${f.kind}: ${f.from} → ${f.to}</li>`)}
        </ul>`,
    );
  if (parts.length === 0) return html``;
  return html`<details open id="evidence-details">
    <summary>What the counts rest on</summary>
    ${parts}
  </details>`;
}

/**
 * The repositories carrying the window's work as a table, most commits first: each linked (as text on the demo's
 * reserved host) with its human commits of the window and of the 14 days before; nothing when the week recorded none.
 */
export function repositoriesTable(d: EvidenceDetails, weekName: string): SafeHtml {
  if (d.repositories.length === 0) return html``;
  return html`<table class="repos">
    <caption>
      Repositories carrying the work, ${weekName}
    </caption>
    <thead>
      <tr>
        <th scope="col">Repository</th>
        <th scope="col" class="num">Human commits, last 14 days</th>
        <th scope="col" class="num">The 14 days before</th>
      </tr>
    </thead>
    <tbody>
      ${d.repositories.map(
        (r) =>
          html`<tr>
            <th scope="row">${link(r.url, r.name)}</th>
            <td class="num">${r.commits.toLocaleString('en-US')}</td>
            <td class="num">${r.commitsPrior.toLocaleString('en-US')}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
