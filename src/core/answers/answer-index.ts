import type { AnswerHit } from '../../schemas/answers.js';
import { inChunks, type Steps } from '../../snapshot/steps.js';
import { InvertedIndex } from '../search/inverted-index.js';
import { contentTerms } from '../search/text.js';
import { confidence, MIN_CONFIDENCE } from './confidence.js';
import type { AnswerEntry } from './entry.js';
import { synonymWords } from './synonyms.js';

/** BM25 candidates re-scored by confidence for each query. */
const CANDIDATES = 40;
/** Query words in more than this share of questions only retrieve when the query has no rarer word. */
const COMMON_SHARE = 0.1;

/** Entries analysed per step when the index is built in steps. */
const ENTRY_CHUNK = 1_000;

export interface ScoredAnswer {
  entry: AnswerEntry;
  confidence: number;
  score: number;
}

interface Indexed {
  entry: AnswerEntry;
  questionTerms: string[];
  keywordTerms: string[];
  /** An FAQ answer's own wording (empty for other entries: their answers are figures and names). */
  wordingTerms: string[];
}

/**
 * Words that carry no subject in a question to the service ("can I use it", "do I want", "is it possible"): left out
 * of confidence on both sides, so they neither lower a match nor make one.
 */
const FILLER = new Set(
  'use using used want wants wanted know able possible way ways thing things actually really ever still already'
    .split(' ')
    .map((w) => contentTerms(w)[0]!),
);
const meaningful = (terms: readonly string[]) => terms.filter((t) => !FILLER.has(t));

/** "isn't", "don't", "can't": the negation is a stop word, not a word "isn" ("won't" is "will not"). */
export function normaliseQuery(query: string): string {
  return (
    query
      .replace(/\bcan['’]t\b/gi, 'can not')
      .replace(/\bwon['’]t\b/gi, 'will not')
      .replace(/n['’]t\b/gi, ' not')
      // Typed without the apostrophe: "isnt", "doesnt", "dont" ("cant" and "wont" are words of their own).
      .replace(/\b(is|are|was|were|do|does|did|has|have|had|should|would|could)nt\b/gi, '$1 not')
      .replace(/['’](?:re|ve|ll|d|m)\b/gi, '')
  );
}

/** "commitVelocity14d" is also the words "commit velocity 14d": an API field name asked about in plain words. */
export function splitIdentifiers(text: string): string {
  return text.replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (id) => `${id} ${id.replace(/([a-z0-9])([A-Z])/g, '$1 $2')}`);
}

export function toHit(scored: ScoredAnswer): AnswerHit {
  const { entry } = scored;
  return {
    question: entry.question,
    answer: entry.answer,
    url: entry.url,
    source: entry.source,
    confidence: scored.confidence,
    facts: entry.facts,
    related: entry.related,
  };
}

const wording = (entry: AnswerEntry) => (entry.kind === 'faq' ? splitIdentifiers(entry.answer) : '');

const indexed = (entry: AnswerEntry): Indexed => ({
  entry,
  questionTerms: meaningful(contentTerms(splitIdentifiers(entry.question))),
  keywordTerms: contentTerms(entry.keywords.join(' ')),
  wordingTerms: contentTerms(wording(entry)),
});

// Questions and keywords find the candidates; confidence is computed against them (and the FAQ wording, below).
const indexedText = (e: AnswerEntry) => [splitIdentifiers(e.question), e.keywords.join(' ')];
const indexedTexts = (entries: readonly AnswerEntry[]) => entries.map(indexedText);
const INDEX_OPTIONS = { fields: [{ boost: 3 }, { boost: 2 }] };
/**
 * The general answers (every entry not about one named startup or company: lists, statistics, the FAQ) in an index
 * of their own, with an FAQ's answer wording as a third field. It only adds candidates: a word common among startups'
 * answers ("framework" in a hundred startups' keywords) is rare here and still retrieves the one list about it, and a
 * word only the FAQ wording holds cannot change which entries the main index retrieves. It holds a few hundred
 * entries whatever the number of startups, so it is searched in full.
 */
const GENERAL_OPTIONS = { fields: [{ boost: 3 }, { boost: 2 }, { boost: 1 }] };
const GENERAL_CANDIDATES = 20;
const NAMED = new Set<AnswerEntry['kind']>(['startup', 'comparison', 'diligence']);
const generalText = (e: AnswerEntry) => [splitIdentifiers(e.question), e.keywords.join(' '), wording(e)];

/**
 * The answer index: an inverted index (BM25F, see search/inverted-index.ts) over each entry's question and keywords
 * finds the candidates; each candidate is then scored by confidence (how much of the query its question covers, see
 * confidence.ts) and the best confidence wins, BM25 breaking ties. Entries below MIN_CONFIDENCE are never returned.
 */
export class AnswerIndex {
  private readonly index: InvertedIndex;
  private readonly items: Indexed[];
  private readonly generalIndex: InvertedIndex;
  /** The item of each document of the general index. */
  private readonly generalItems: number[];

  /** The index built in steps (see steps.ts): entries analysed a chunk at a time, then the inverted index. */
  static *build(entries: readonly AnswerEntry[]): Steps<AnswerIndex> {
    const items: Indexed[] = [];
    // The texts in the same steps: an entry's question and keywords may be built when read (a startup's answer), and
    // reading every entry's at once was a step of over 0.1 s at 100,000 startups.
    const texts: string[][] = [];
    yield* inChunks(entries, ENTRY_CHUNK, (entry) => {
      items.push(indexed(entry));
      texts.push(indexedText(entry));
    });
    const index = yield* InvertedIndex.build(texts, INDEX_OPTIONS);
    return new AnswerIndex(entries, { items, index });
  }

  constructor(entries: readonly AnswerEntry[], built?: { items: Indexed[]; index: InvertedIndex }) {
    this.items = built?.items ?? entries.map(indexed);
    this.index = built?.index ?? new InvertedIndex(indexedTexts(entries), INDEX_OPTIONS);
    this.generalItems = this.items.flatMap((item, i) => (NAMED.has(item.entry.kind) ? [] : [i]));
    this.generalIndex = new InvertedIndex(
      this.generalItems.map((i) => generalText(this.items[i]!.entry)),
      GENERAL_OPTIONS,
    );
  }

  get size(): number {
    return this.items.length;
  }

  /** Candidates by BM25, re-ranked by confidence; includes those below the floor (callers decide). */
  private rank(query: string): ScoredAnswer[] {
    const asked = normaliseQuery(query);
    const { hits, terms: analysed } = this.index.search(asked, CANDIDATES, undefined, COMMON_SHARE);
    const terms = meaningful(analysed);
    const score = (doc: number, bm25: number): ScoredAnswer => {
      const item = this.items[doc]!;
      return {
        entry: item.entry,
        confidence: confidence(terms, item.questionTerms, item.keywordTerms, item.wordingTerms),
        score: bm25,
      };
    };
    const seen = new Set(hits.map((h) => h.doc));
    const scored = hits.map(({ doc, score: bm25 }) => score(doc, bm25));
    // The general answers are also looked for by the everyday words of the service's own (synonyms.ts): "how
    // frequently … updated" finds "How often is the data refreshed?". Confidence reads the query's own terms.
    const widened = [asked, ...synonymWords(analysed)].join(' ');
    for (const { doc } of this.generalIndex.search(widened, GENERAL_CANDIDATES).hits) {
      const item = this.generalItems[doc]!;
      // Found by the general index alone: ranked after every entry of equal confidence the main index found.
      if (!seen.has(item)) scored.push(score(item, 0));
    }
    return scored.sort((a, b) => b.confidence - a.confidence || b.score - a.score);
  }

  /** The confidence below which no answer is returned. */
  get floor(): number {
    return MIN_CONFIDENCE;
  }

  /** Every BM25 candidate re-ranked by confidence, including those below the floor (for callers that filter). */
  rankAll(query: string): ScoredAnswer[] {
    return this.rank(query);
  }

  /** Up to `limit` answers with confidence at least MIN_CONFIDENCE, best first. */
  ask(query: string, limit: number): ScoredAnswer[] {
    return this.rank(query)
      .filter((s) => s.confidence >= MIN_CONFIDENCE)
      .slice(0, limit);
  }

  best(query: string): ScoredAnswer | undefined {
    return this.ask(query, 1)[0];
  }

  /** The nearest questions below the floor, for a no-match response. */
  suggestions(query: string, limit: number): ScoredAnswer[] {
    return this.rank(query)
      .filter((s) => s.confidence < MIN_CONFIDENCE && s.confidence > 0)
      .slice(0, limit);
  }
}
