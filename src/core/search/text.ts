import { stemmer } from 'stemmer';

/**
 * The one text analysis used by the answer index, the site search and confidence: Unicode-folded lower-case words
 * (accents removed), English stop words dropped, Porter-stemmed ("refreshed" and "refreshes" both become "refresh").
 */
const STOP_WORDS = new Set(
  (
    'a an the is are was were be been being am of for to in on at by with and or nor but if then than so as from ' +
    'into onto over under about what which who whom whose why when where how does do did done doing can could ' +
    'should would will shall may might must i me my mine we us our ours you your yours it its this that these ' +
    'those there here their theirs they them he him his she her hers tell please show give get list any some ' +
    'much more most very just also all each every such own same too only not no yes s t'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

/** Lower-case, accent-free words of `text`, stop words included (for snippets and display). */
export function words(text: string): string[] {
  // Plain ASCII (most text) needs no Unicode folding; skipping it halves the cost of indexing.
  const folded = ASCII.test(text) ? text : text.normalize('NFKD').replace(/\p{M}+/gu, '');
  return folded.toLowerCase().match(WORD) ?? [];
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const stemCache = new Map<string, string>();

/** The index form of one lower-case word, or null for a stop word. Words over 40 characters are cut. */
export function indexTerm(word: string): string | null {
  if (STOP_WORDS.has(word)) return null;
  const w = word.length > 40 ? word.slice(0, 40) : word;
  let stem = stemCache.get(w);
  if (stem === undefined) {
    stem = /^\p{N}+$/u.test(w) ? w : stemmer(w);
    if (stemCache.size < 200_000) stemCache.set(w, stem);
  }
  return stem;
}

/** The distinct index terms of `text`, in order of first appearance. */
export function contentTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const word of words(text)) {
    const term = indexTerm(word);
    if (term) seen.add(term);
  }
  return [...seen];
}
