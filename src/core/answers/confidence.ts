import { distance } from 'fastest-levenshtein';
import { synonymous } from './synonyms.js';

/**
 * Confidence of an answer hit: how much of the query the matched question covers, in 0..1.
 *
 *   confidence = 0.7 × (query terms found in the question) / (query terms)
 *              + 0.3 × (question terms found in the query) / (question terms)
 *
 * Terms are content words after stop-word removal and stemming (see core/search/text.ts). A query term that only an
 * FAQ's own answer wording holds counts half (WORDING_WEIGHT): the answer says it, the question does not ask it.
 * A query term is found when
 * the question has the same term, a term it is a prefix of (at least 4 letters, "accel" → "acceler")  or that is a
 * prefix of it (at least 4 letters, and of 4 only as the start of a compound: "data" → "dataset", while "europe"
 * does not ask "euro"), or one within
 * one edit (terms of 5 letters or more, for typos). So 1 means the query asks exactly the question; 0.7 means every
 * word of the query is in the question but the question says more; below MIN_CONFIDENCE the hit is not returned.
 */
export const MIN_CONFIDENCE = 0.5;
const QUERY_WEIGHT = 0.7;
/** What a query term found only in an FAQ answer's wording counts towards the query's coverage. */
export const WORDING_WEIGHT = 0.5;

export function termMatches(queryTerm: string, candidate: string): boolean {
  if (queryTerm === candidate) return true;
  // Words that stand for each other in a question to the service (synonyms.ts): "billed" asks "charged".
  if (synonymous(queryTerm, candidate)) return true;
  if (queryTerm.length >= 4 && candidate.startsWith(queryTerm)) return true;
  // The other way round, a four-letter term begins a compound ("data" of "dataset"), not a word one or two letters
  // longer ("europe" does not ask "euro").
  if (
    candidate.length >= 4 &&
    queryTerm.startsWith(candidate) &&
    (candidate.length >= 5 || queryTerm.length - candidate.length >= 3)
  )
    return true;
  return queryTerm.length >= 5 && candidate.length >= 5 && distance(queryTerm, candidate) <= 1;
}

function covered(terms: readonly string[], against: readonly string[], wording: readonly string[] = []): number {
  if (terms.length === 0) return 0;
  let found = 0;
  for (const term of terms) {
    if (against.some((c) => termMatches(term, c))) found++;
    else if (wording.some((c) => termMatches(term, c))) found += WORDING_WEIGHT;
  }
  return found / terms.length;
}

/**
 * `queryTerms` and `questionTerms` are distinct content terms; `extraTerms` (keywords of the entry) count as found
 * for the query side but are not required on the question side; `wordingTerms` (an FAQ's answer) count half.
 */
export function confidence(
  queryTerms: readonly string[],
  questionTerms: readonly string[],
  extraTerms: readonly string[] = [],
  wordingTerms: readonly string[] = [],
): number {
  if (queryTerms.length === 0 || questionTerms.length === 0) return 0;
  const queryCoverage = covered(
    queryTerms,
    extraTerms.length ? [...questionTerms, ...extraTerms] : questionTerms,
    wordingTerms,
  );
  const questionCoverage = covered(questionTerms, queryTerms);
  const value = QUERY_WEIGHT * queryCoverage + (1 - QUERY_WEIGHT) * questionCoverage;
  return Math.round(Math.min(1, value) * 1000) / 1000;
}
