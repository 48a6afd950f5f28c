import { diligenceDossier } from '../../core/diligence/dossier.js';
import type { PageContext } from '../context.js';

/**
 * Whether the diligence corpus documents anything about a company: an acquisition it made or underwent, or a disclosed
 * backer. A fictional startup of the demo has none, so no page links to an empty dossier.
 */
export function documentsDeals(ctx: PageContext, name: string): boolean {
  const result = diligenceDossier(ctx.snapshot, ctx.baseUrl, name);
  if (!result.found) return false;
  const d = result.body.dossier;
  return d.acquiredBy.length + d.acquisitionsMade.length + d.backedBy.length > 0;
}
