import { LIST_KINDS, type AnswerEntry } from '../../core/answers/entry.js';
import { sectorInfo } from '../../domain/sectors.js';
import { SECTOR_SLUGS, type SectorSlug } from '../../schemas/enums.js';
import type { SnapshotStartup } from '../../snapshot/snapshot.js';
import { change, formatInt, sitePath, startupPath, type PageContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { signalCell } from '../signal-label.js';

/**
 * An answer as a person reads it on the site: a one-line summary, the startups it names as a table with each linked
 * to its page, and its facts with their sources as links to pages named for what they show (never "(source)" to a
 * JSON body). The answer's text and facts are the answer service's; only the presentation is the site's. Answers
 * that claim a rise ("accelerating fastest") list only the startups whose commits rose, and say how many did not.
 */

/** Kinds whose list claims a rise: a startup whose commits fell does not fit the claim. */
const RISING_KINDS: ReadonlySet<string> = new Set(['fastest', 'sector-fastest']);

/** The percent of a change ("+20%" as 20), or undefined when it is not one. */
function percentOf(text: string): number | undefined {
  const m = /^([+-]?\d+(?:\.\d+)?)%$/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

/** The startups a list answer names, in its order, as this period has them; only those fitting a rise claim. */
export function answerStartups(
  ctx: PageContext,
  entry: Pick<AnswerEntry, 'kind' | 'subjects'>,
): { shown: SnapshotStartup[]; left: SnapshotStartup[] } {
  const all = entry.subjects
    .map((login) => ctx.snapshot.byLogin.get(login.toLowerCase()))
    .filter((s): s is SnapshotStartup => s !== undefined);
  if (!RISING_KINDS.has(entry.kind)) return { shown: all, left: [] };
  const rises = (s: SnapshotStartup) => (percentOf(s.startup.commitVelocityChange) ?? 0) > 0;
  return { shown: all.filter(rises), left: all.filter((s) => !rises(s)) };
}

/** The answer's lead: its text up to the list it starts ("…are led by:"), the synthetic-data note left to the page. */
export function answerSummary(entry: Pick<AnswerEntry, 'answer'>): string {
  const text = entry.answer.replace(/\s*\(Synthetic demo data[^)]*\)\s*$/, '').trim();
  const list = /:\s*1\.\s/.exec(text);
  return list ? `${text.slice(0, list.index).trim()}:` : text;
}

/** A readable name for a source page of this site, or for a page elsewhere its host. */
export function sourceName(ctx: PageContext, url: string): { href: string; text: string } {
  const href = sitePath(url, ctx.baseUrl);
  if (/^https?:/.test(href)) {
    try {
      return { href, text: new URL(href).hostname.replace(/^www\./, '') };
    } catch {
      return { href, text: href };
    }
  }
  const [path, query = ''] = href.split('?');
  const startup = /^\/startups\/([^/]+)$/.exec(path!);
  if (startup) {
    const s = ctx.snapshot.byLogin.get(decodeURIComponent(startup[1]!).toLowerCase());
    return { href, text: s ? `${s.startup.name}'s page` : 'Its startup page' };
  }
  const sector = /^\/sectors\/([^/]+)$/.exec(path!);
  if (sector && (SECTOR_SLUGS as readonly string[]).includes(sector[1]!))
    return { href, text: `The ${sectorInfo(sector[1] as SectorSlug).name} ranking` };
  // The API's JSON bodies have pages that show the same figures.
  if (path === '/api/signals.json' || path === '/api/signals.csv')
    return { href: '/', text: `This week's rankings (${ctx.snapshot.period.name})` };
  if (path === '/api/signal') {
    const login = new URLSearchParams(query).get('company')?.toLowerCase();
    const s = login ? ctx.snapshot.byLogin.get(login) : undefined;
    if (s) return { href: startupPath(s), text: `${s.startup.name}'s page` };
  }
  const pages: Record<string, string> = {
    '/methodology': 'Methodology',
    '/glossary': 'Glossary',
    '/faq': 'FAQ',
    '/periods': 'The stored weeks',
    '/research': 'Research',
    '/markets': 'Markets',
    '/backtest': 'Backtest',
    '/docs': 'API documentation',
    '/startups': 'Every tracked startup',
    '/': `This week's rankings (${ctx.snapshot.period.name})`,
  };
  if (pages[path!]) return { href, text: pages[path!]! };
  const diligence = /^\/diligence\/(.+)$/.exec(path!);
  if (diligence) return { href, text: `${decodeURIComponent(diligence[1]!)}: dossier` };
  return { href, text: path!.replace(/^\//, '') || 'Home' };
}

/** The answer's body: summary and table for a list of startups, the text for anything else; then the facts. */
export function answerBody(
  ctx: PageContext,
  entry: Pick<AnswerEntry, 'answer' | 'kind' | 'subjects' | 'facts'>,
  headingLevel: 'h2' | 'h3' = 'h3',
): SafeHtml {
  const list = LIST_KINDS.has(entry.kind) && entry.subjects.length > 0;
  const { shown, left } = list ? answerStartups(ctx, entry) : { shown: [], left: [] };
  const heading = (id: string, text: string) =>
    headingLevel === 'h2' ? html`<h2 id="${id}">${text}</h2>` : html`<h3 id="${id}">${text}</h3>`;
  const shownLogins = new Set(shown.map((s) => s.login.toLowerCase()));
  const leftLogins = new Set(left.map((s) => s.login.toLowerCase()));
  // A fact about a startup that does not fit the claim is not shown with it.
  const facts = entry.facts.filter((f) => {
    const m = /\/startups\/([^/?#]+)$/.exec(f.sourceUrl);
    return !m || !leftLogins.has(decodeURIComponent(m[1]!).toLowerCase()) || shownLogins.size === 0;
  });
  const table = shown.length
    ? html`<div class="table-scroll">
        <table class="stack answer-startups">
          <caption class="visually-hidden">
            The startups of this answer, each linked to its page
          </caption>
          <thead>
            <tr>
              <th scope="col" class="num">#</th>
              <th scope="col">Startup</th>
              <th scope="col">Sector</th>
              <th scope="col" class="num">Commits (14d)</th>
              <th scope="col" class="num">Change</th>
              <th scope="col">Signal</th>
            </tr>
          </thead>
          <tbody>
            ${shown.map(
              (s, i) =>
                html`<tr>
                  <td class="num rank">${i + 1}</td>
                  <td class="lead"><a href="${startupPath(s)}">${s.startup.name}</a></td>
                  <td data-label="Sector"><a href="/sectors/${s.sector}">${sectorInfo(s.sector).name}</a></td>
                  <td class="num" data-label="Commits (14d)">${formatInt(s.startup.commitVelocity14d)}</td>
                  <td class="num nowrap" data-label="Change">${change(s.startup.commitVelocityChange)}</td>
                  <td class="signal" data-label="Signal">${signalCell(s)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`
    : '';
  const intro = list
    ? html`<p class="answer-summary">${answerSummary(entry)}</p>
        ${table}
        ${
          left.length
            ? html`<p class="muted answer-left-out">
                ${
                  shown.length
                    ? `${left.length} more ${left.length === 1 ? 'startup' : 'startups'} the answer lists did not rise (commits fell or stayed level against the prior 14 days), so ${left.length === 1 ? 'it is' : 'they are'} left out here.`
                    : `None of the ${left.length} startups the answer lists rose: commits fell or stayed level against the prior 14 days.`
                }
              </p>`
            : ''
        }`
    : html`<p>${entry.answer}</p>`;
  return html`${intro} ${heading('answer-sources', 'Facts and sources')}
    <ul class="facts">
      ${facts.map((f) => {
        const source = sourceName(ctx, f.sourceUrl);
        return html`<li>
          ${f.claim} <span class="source">Source: <a href="${source.href}">${source.text}</a></span>
        </li>`;
      })}
    </ul>`;
}
