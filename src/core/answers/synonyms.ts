import { contentTerms } from '../search/text.js';

/**
 * Everyday words for the words the service's own answers use (its FAQ, glossary and pricing document): a stranger
 * asks how "frequently" the numbers are "updated", whether they are "billed", whether they must "register". Each
 * group is a set of words that stand for one another in a question to this service; the first word of a group is
 * the one the service's texts use. A word belongs here only when it means the same as the others in every question
 * the service answers (never a word that names a company, a sector or a signal type).
 */
const GROUPS: readonly (readonly string[])[] = [
  // Every company the service answers about is a startup or a company of the diligence corpus.
  ['startup', 'company', 'companies'],
  ['charged', 'billed', 'billing'],
  ['cost', 'price', 'fee', 'expensive', 'cheap'],
  ['often', 'frequently', 'frequency'],
  ['refreshed', 'updated', 'update'],
  ['data', 'numbers', 'figures', 'stats', 'statistics'],
  ['signup', 'register', 'registration'],
  ['need', 'required', 'mandatory'],
  ['real', 'actual', 'genuine'],
  ['predict', 'forecast', 'foresee', 'anticipate'],
  ['funding', 'fundraising', 'fundraise'],
  // Quoting the data is citing it.
  ['cite', 'quote', 'quoting'],
  // A page's script runs in the browser: a frontend calls the API from it.
  ['browser', 'frontend', 'webpage', 'webapp'],
  ['javascript', 'js'],
  // The service's sectors are what an investor calls verticals or industries.
  ['sector', 'sectors', 'vertical', 'verticals', 'industry', 'industries'],
  // A sector's typical startup is its median one.
  ['median', 'typical'],
  ['expire', 'lapse', 'expiry'],
];

/** Each term's group (index terms: stemmed, as the index and confidence compare them). */
const groupOf = new Map<string, number>();
/** The words of each group, for widening a query that finds candidates. */
const groupWords: string[][] = [];
GROUPS.forEach((group, g) => {
  groupWords.push([...group]);
  for (const word of group) for (const term of contentTerms(word)) if (!groupOf.has(term)) groupOf.set(term, g);
});

/** Do two index terms stand for each other in a question to the service? */
export function synonymous(a: string, b: string): boolean {
  const g = groupOf.get(a);
  return g !== undefined && g === groupOf.get(b);
}

/**
 * The other words of the groups the query's terms belong to, to add to the query when it looks for candidates (the
 * query's own terms, and nothing else, are then scored by confidence).
 */
export function synonymWords(terms: readonly string[]): string[] {
  const out = new Set<string>();
  for (const term of terms) {
    const g = groupOf.get(term);
    if (g !== undefined) for (const word of groupWords[g]!) out.add(word);
  }
  return [...out];
}
