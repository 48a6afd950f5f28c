import { sectorInfo } from '../../domain/sectors.js';
import type { SnapshotStartup } from '../../snapshot/snapshot.js';
import { startupPath, type PageContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { signalOf } from '../signal-label.js';

/**
 * The tracked startup a site search or a question names, shown before anything else on the page. A link is no claim
 * about a company, so the site's search box uses the free lookup's rule (the matcher with typos): its exact name,
 * organisation or alias is the startup itself; a confident typo, or the first words of a name ("Zepatra" for
 * "Zepatra Cloud"), are offered as "did you mean" links to the startup's page, never answered as it.
 */
export interface StartupHit {
  /** `match`: the query names it; `near`: it is offered ("did you mean"). */
  kind: 'match' | 'near';
  startups: SnapshotStartup[];
}

const MAX_OFFERED = 3;

export function startupHit(ctx: PageContext, query: string): StartupHit | undefined {
  const q = query.trim();
  if (!q) return undefined;
  const resolution = ctx.snapshot.matcher.resolve(q);
  if (resolution.status === 'match')
    return { kind: resolution.how === 'typo' ? 'near' : 'match', startups: [resolution.item] };
  const offered = [...new Map(resolution.candidates.map((c) => [c.item.login, c.item])).values()];
  return offered.length ? { kind: 'near', startups: offered.slice(0, MAX_OFFERED) } : undefined;
}

/** The startup first (name, sector, rank, signal), or the "did you mean" links. */
export function startupHitBlock(hit: StartupHit | undefined): SafeHtml {
  if (!hit) return html``;
  if (hit.kind === 'match') {
    const s = hit.startups[0]!;
    return html`<section class="top-hit" aria-label="Startup">
      <p>
        <a href="${startupPath(s)}"><strong>${s.startup.name}</strong></a>
        <span class="badge">startup</span><br />
        <span class="muted"
          >${sectorInfo(s.sector).name}${s.rankOverall ? `, #${s.rankOverall} overall` : ''}, #${s.rankInSector} in its
          sector; signal: </span
        >${signalOf(s)}
      </p>
    </section>`;
  }
  return html`<p class="did-you-mean answer" role="note">
    Did you mean
    ${hit.startups.map(
      (s, i) =>
        html`${i === 0 ? '' : i === hit.startups.length - 1 ? ' or ' : ', '}<a href="${startupPath(s)}"
            >${s.startup.name}</a
          >`,
    )}?
  </p>`;
}
