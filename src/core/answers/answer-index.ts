import type { AnswerHit } from '../../schemas/answers.js';
import { inChunks, type Steps } from '../../snapshot/steps.js';
import { InvertedIndex } from '../search/inverted-index.js';
import { contentTerms } from '../search/text.js';
import { confidence, MIN_CONFIDENCE } from './confidence.js';
import type { AnswerEntry } from './entry.js';

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

const indexed = (entry: AnswerEntry): Indexed => ({
  entry,
  questionTerms: contentTerms(entry.question),
  keywordTerms: contentTerms(entry.keywords.join(' ')),
});

// Questions and keywords only: confidence is computed against them, so a candidate found through its answer text
// alone could never reach the floor.
const indexedText = (e: AnswerEntry) => [e.question, e.keywords.join(' ')];
const indexedTexts = (entries: readonly AnswerEntry[]) => entries.map(indexedText);
const INDEX_OPTIONS = { fields: [{ boost: 3 }, { boost: 2 }] };

/**
 * The answer index: an inverted index (BM25F, see search/inverted-index.ts) over each entry's question and keywords
 * finds the candidates; each candidate is then scored by confidence (how much of the query its question covers, see
 * confidence.ts) and the best confidence wins, BM25 breaking ties. Entries below MIN_CONFIDENCE are never returned.
 */
export class AnswerIndex {
  private readonly index: InvertedIndex;
  private readonly items: Indexed[];

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
  }

  get size(): number {
    return this.items.length;
  }

  /** Candidates by BM25, re-ranked by confidence; includes those below the floor (callers decide). */
  private rank(query: string): ScoredAnswer[] {
    const { hits, terms } = this.index.search(query, CANDIDATES, undefined, COMMON_SHARE);
    const scored: ScoredAnswer[] = hits.map(({ doc, score }) => {
      const item = this.items[doc]!;
      return { entry: item.entry, confidence: confidence(terms, item.questionTerms, item.keywordTerms), score };
    });
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
