import { isoDay } from '../../domain/periods.js';
import type { GraphqlErrorItem } from '../../github/client.js';

/** A list in parts of at most `size` items (one batched query each). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The items of a GitHub list without the nodes it answered as null (a partial result). */
export function present<T>(list: readonly (T | null)[] | null | undefined): T[] {
  return (list ?? []).filter((x): x is T => x !== null);
}

/** The UTC day of an instant. */
export function dayOf(instant: string): string {
  return isoDay(new Date(instant));
}

/** The first error GitHub answered for one alias of a batched query. */
export function errorFor(errors: GraphqlErrorItem[], alias: string): GraphqlErrorItem | undefined {
  return errors.find((e) => e.path?.[0] === alias);
}

/** The errors GitHub answered beside the data of one alias, as one note (at most three named). */
export function partialNote(errors: GraphqlErrorItem[], alias: string): string | undefined {
  const mine = errors.filter((e) => e.path?.[0] === alias);
  if (mine.length === 0) return undefined;
  const named = mine
    .slice(0, 3)
    .map((e) => `${(e.path ?? []).slice(1).join('.') || 'answer'}: ${e.message}`)
    .join('; ');
  return `GitHub's answer was partial (${named}${mine.length > 3 ? `; and ${mine.length - 3} more` : ''}); what it answered was kept`;
}
