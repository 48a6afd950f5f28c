import { isStageEstimated, STAGE_FROM_WATCHLIST, type StageSource } from '../domain/stage-source.js';
import { html, type SafeHtml } from './html.js';

/**
 * A stage as a badge that says how it is known: an estimate says so, a stage the watchlist states without a source
 * says that, and a sourced stage links to the page stating it.
 */
export function stageBadge(stage: string, source: StageSource): SafeHtml {
  if (isStageEstimated(source)) {
    return html`<span
      class="badge"
      title="Estimated from the number of public committers over 28 days: not a funding fact"
      >${stage} (estimated)</span
    >`;
  }
  if (source === STAGE_FROM_WATCHLIST) {
    return html`<span class="badge" title="The watchlist states this stage without a public source"
      >${stage} (per the watchlist)</span
    >`;
  }
  return html`<a class="badge" href="${source}" rel="nofollow noopener" title="The public page stating this stage"
    >${stage}</a
  >`;
}
