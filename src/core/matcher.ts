import { distance } from 'fastest-levenshtein';
import { LRUCache } from 'lru-cache';

/**
 * Best-match lookup of a free-text name against a fixed list of entities (startups, diligence entities): one rule
 * for every surface that takes a company name.
 *
 * Names are compared in a compact form (Unicode-folded, lower case, letters and digits only), so case, spacing,
 * punctuation and accents never matter. Candidates come from a trigram inverted index; each is scored by the best of
 *  - trigram Dice coefficient (shared letter triples, robust to reordering and insertions),
 *  - Levenshtein similarity 1 − distance / longer length (robust to typos),
 *  - a prefix score for a query that is the start of a name ("acme" → "Acme Robotics"),
 * and the highest score wins if it reaches MATCH_THRESHOLD. A query without letters or digits is always a miss.
 * A distinctive word of a name (one that at most two entities share) is a form too, its score weighted by
 * WORD_WEIGHT, so "galetra" finds "Galettra Base" while a common word such as "labs" does not pick an arbitrary one.
 */
export const MATCH_THRESHOLD = 0.6;
const MAX_CANDIDATES = 64;
const WORD_WEIGHT = 0.9;
const MAX_WORD_SHARING = 2;

export function compactName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function trigrams(compact: string): string[] {
  const padded = `\u0002\u0002${compact}\u0003`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return [...grams];
}

function words(text: string): string[] {
  return text
    .split(/[\s\-_.,/&+]+/)
    .map(compactName)
    .filter((w) => w.length >= 3);
}

interface Form {
  text: string;
  grams: number;
  weight: number;
}

export interface Match<T> {
  item: T;
  score: number;
}

export class NameMatcher<T> {
  private readonly forms: Form[][] = [];
  private readonly exact = new Map<string, number>();
  private readonly postings = new Map<string, number[]>();
  private readonly cache = new LRUCache<string, { index: number; score: number } | { index: -1 }>({ max: 10_000 });

  /** `names(item)` lists every name an item answers to (display name, slug, aliases). */
  constructor(
    private readonly items: readonly T[],
    names: (item: T) => readonly string[],
  ) {
    const itemNames = items.map((item) => names(item));
    const wordSharing = new Map<string, number>();
    for (const list of itemNames) {
      for (const word of new Set(list.flatMap(words))) wordSharing.set(word, (wordSharing.get(word) ?? 0) + 1);
    }
    itemNames.forEach((list, index) => {
      const full = [...new Set(list.map(compactName).filter(Boolean))];
      const partial = [...new Set(list.flatMap(words))].filter(
        (w) => !full.includes(w) && wordSharing.get(w)! <= MAX_WORD_SHARING,
      );
      const forms: Form[] = [
        ...full.map((text) => ({ text, grams: trigrams(text).length, weight: 1 })),
        ...partial.map((text) => ({ text, grams: trigrams(text).length, weight: WORD_WEIGHT })),
      ];
      this.forms.push(forms);
      for (const form of full) if (!this.exact.has(form)) this.exact.set(form, index);
      for (const form of forms) {
        for (const gram of trigrams(form.text)) {
          const list = this.postings.get(gram);
          if (list === undefined) this.postings.set(gram, [index]);
          else if (list[list.length - 1] !== index) list.push(index);
        }
      }
    });
  }

  get size(): number {
    return this.items.length;
  }

  best(query: string): Match<T> | undefined {
    const compact = compactName(query);
    if (!compact) return undefined;
    let found = this.cache.get(compact);
    if (found === undefined) {
      found = this.search(compact);
      this.cache.set(compact, found);
    }
    return found.index < 0 ? undefined : { item: this.items[found.index]!, score: (found as { score: number }).score };
  }

  private search(compact: string): { index: number; score: number } | { index: -1 } {
    const exact = this.exact.get(compact);
    if (exact !== undefined) return { index: exact, score: 1 };
    const grams = trigrams(compact);
    const shared = new Map<number, number>();
    for (const gram of grams) {
      for (const index of this.postings.get(gram) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
    }
    const candidates = [...shared].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_CANDIDATES);
    let best: { index: number; score: number } | { index: -1 } = { index: -1 };
    let bestScore = MATCH_THRESHOLD - Number.EPSILON;
    for (const [index, sharedGrams] of candidates) {
      const score = this.score(compact, grams.length, index, sharedGrams);
      if (score > bestScore) {
        bestScore = score;
        best = { index, score: Math.round(score * 1000) / 1000 };
      }
    }
    return best;
  }

  private score(query: string, queryGrams: number, index: number, sharedGrams: number): number {
    let best = 0;
    for (const form of this.forms[index]!) {
      // The shared count is over all of an item's forms; bounded by each form's own gram count it stays a Dice score.
      const dice = (2 * Math.min(sharedGrams, form.grams)) / (queryGrams + form.grams);
      const lev = 1 - distance(query, form.text) / Math.max(query.length, form.text.length);
      const prefix =
        query.length >= 3 && form.text.startsWith(query) ? 0.8 + 0.2 * (query.length / form.text.length) : 0;
      best = Math.max(best, form.weight * Math.max(Math.min(dice, 1), lev, prefix));
    }
    return best;
  }
}
