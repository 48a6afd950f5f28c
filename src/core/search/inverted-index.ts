import { distance } from 'fastest-levenshtein';
import { drain, sortInSteps, type Steps } from '../../snapshot/steps.js';
import { contentTerms, indexTerm, words } from './text.js';

/**
 * An in-memory inverted index with BM25F ranking, built once and then read-only.
 *
 * Every posting stores its document's final impact for the term (idf × Σ over fields of boost × BM25 term-frequency
 * saturation), so answering a query is a sum over the postings of its terms into a score array, then a top-k
 * selection: no per-request scan of the documents, no allocation per posting. Postings live in three typed arrays.
 *
 * Query terms are analysed like the documents (folded, stop words dropped, stemmed). A query term of 4+ letters also
 * matches index terms it is a prefix of (weight 0.5); a query term of 5+ letters that is not in the vocabulary
 * matches terms one edit away (weight 0.4), so a typo still finds its word.
 *
 * MiniSearch was the first choice and was measured: at 50,000 documents its queries took 50–180 ms (common words
 * match most documents and it scores them through maps and objects) against a 5 ms goal, which is why this index
 * exists. See docs/readme/answers.md for the numbers.
 */
export interface IndexField {
  boost: number;
}

export interface IndexOptions {
  /** One entry per field, in the order texts are given for each document. */
  fields: readonly IndexField[];
  k1?: number;
  b?: number;
}

export interface ScoredDoc {
  doc: number;
  score: number;
}

export interface IndexResult {
  total: number;
  hits: ScoredDoc[];
  /** The analysed query terms (what snippets and confidence compare with). */
  terms: string[];
}

/** Documents analysed per step when the index is built in steps (`InvertedIndex.build`). */
const ANALYSE_CHUNK = 1_000;

/** Pass 1 of the build: every field of every document analysed into term ids. */
interface Analysed {
  size: number;
  terms: string[];
  termIds: Map<string, number>;
  /** A flat token array (term ids) with per-field offsets. */
  tokens: Int32Array;
  tokenCount: number;
  fieldStart: Int32Array;
  totalLength: Float64Array;
}

/**
 * Analyses every field of every document into term ids, yielding every ANALYSE_CHUNK documents. Words are cached to
 * their term id, so each distinct word is folded and stemmed once.
 */
function* analyse(documents: readonly (readonly string[])[], fieldCount: number): Steps<Analysed> {
  const size = documents.length;
  const terms: string[] = [];
  const termIds = new Map<string, number>();
  const wordIds = new Map<string, number>();
  let tokens = new Int32Array(1 << 16);
  let tokenCount = 0;
  const fieldStart = new Int32Array(size * fieldCount + 1);
  const totalLength = new Float64Array(fieldCount);
  for (let d = 0; d < size; d++) {
    const texts = documents[d]!;
    for (let f = 0; f < fieldCount; f++) {
      fieldStart[d * fieldCount + f] = tokenCount;
      for (const word of words(texts[f] ?? '')) {
        let id = wordIds.get(word);
        if (id === undefined) {
          const term = indexTerm(word);
          if (term === null) id = -1;
          else {
            id = termIds.get(term);
            if (id === undefined) {
              id = terms.length;
              terms.push(term);
              termIds.set(term, id);
            }
          }
          wordIds.set(word, id);
        }
        if (id < 0) continue;
        if (tokenCount === tokens.length) {
          const grown = new Int32Array(tokens.length * 2);
          grown.set(tokens);
          tokens = grown;
        }
        tokens[tokenCount++] = id;
      }
      totalLength[f]! += tokenCount - fieldStart[d * fieldCount + f]!;
    }
    if ((d + 1) % ANALYSE_CHUNK === 0) yield;
  }
  fieldStart[size * fieldCount] = tokenCount;
  return { size, terms, termIds, tokens, tokenCount, fieldStart, totalLength };
}

/**
 * Every term's postings in one pair of arrays (term t's documents, ascending, and weights are at offsets[t] …
 * offsets[t + 1] - 1: one view per term was two objects per term, about 200 bytes of heap for a term used once); the
 * terms in text order; the terms by shape (see InvertedIndex).
 */
interface Postings {
  offsets: Int32Array;
  docs: Int32Array;
  weights: Float32Array;
  sorted: Int32Array;
  shapes: Map<string, number[]>;
}

/** Documents (then terms) handled per step when the postings are built in steps. */
const POSTINGS_CHUNK = 2_000;

/** BM25F postings of analysed documents, in steps of POSTINGS_CHUNK documents or terms. */
function* postingsOf(analysed: Analysed, options: IndexOptions): Steps<Postings> {
  const { fields } = options;
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const fieldCount = fields.length;
  const { size, terms, tokens, tokenCount, fieldStart, totalLength } = analysed;
  const avgLength = Array.from(totalLength, (t) => Math.max(1, t / Math.max(1, size)));
  const vocabulary = terms.length;

  // Pass 2: per document, Σ over fields of boost × saturated term frequency, as (term, doc, weight) triples.
  const pairTerm = new Int32Array(tokenCount);
  const pairDoc = new Int32Array(tokenCount);
  const pairWeight = new Float64Array(tokenCount);
  let pairs = 0;
  const df = new Int32Array(vocabulary);
  const accumulated = new Float64Array(vocabulary);
  const docStamp = new Int32Array(vocabulary).fill(-1);
  const tf = new Int32Array(vocabulary);
  const docTerms: number[] = [];
  const fieldTerms: number[] = [];
  for (let d = 0; d < size; d++) {
    docTerms.length = 0;
    for (let f = 0; f < fieldCount; f++) {
      const from = fieldStart[d * fieldCount + f]!;
      const to = fieldStart[d * fieldCount + f + 1]!;
      if (to === from) continue;
      fieldTerms.length = 0;
      for (let i = from; i < to; i++) {
        const id = tokens[i]!;
        if (tf[id] === 0) fieldTerms.push(id);
        tf[id]!++;
      }
      const norm = k1 * (1 - b + (b * (to - from)) / avgLength[f]!);
      const boost = fields[f]!.boost;
      for (const id of fieldTerms) {
        const count = tf[id]!;
        tf[id] = 0;
        if (docStamp[id] !== d) {
          docStamp[id] = d;
          accumulated[id] = 0;
          docTerms.push(id);
        }
        accumulated[id]! += (boost * (count * (k1 + 1))) / (count + norm);
      }
    }
    for (const id of docTerms) {
      pairTerm[pairs] = id;
      pairDoc[pairs] = d;
      pairWeight[pairs] = accumulated[id]!;
      pairs++;
      df[id]!++;
    }
    if ((d + 1) % POSTINGS_CHUNK === 0) yield;
  }

  // Postings: the triples bucketed by term (documents stay in ascending order), weights multiplied by idf.
  const offsets = new Int32Array(vocabulary + 1);
  for (let id = 0; id < vocabulary; id++) offsets[id + 1] = offsets[id]! + df[id]!;
  const allDocs = new Int32Array(pairs);
  const allWeights = new Float32Array(pairs);
  const cursor = offsets.slice(0, vocabulary);
  const idf = Float64Array.from(df, (n) => Math.log(1 + (size - n + 0.5) / (n + 0.5)));
  for (let i = 0; i < pairs; i++) {
    const id = pairTerm[i]!;
    const at = cursor[id]!++;
    allDocs[at] = pairDoc[i]!;
    allWeights[at] = pairWeight[i]! * idf[id]!;
  }
  yield;

  const byText = yield* sortInSteps(Array.from(terms.keys()), (x, y) =>
    terms[x]! < terms[y]! ? -1 : terms[x]! > terms[y]! ? 1 : 0,
  );
  const sorted = Int32Array.from(byText);
  const shapes = new Map<string, number[]>();
  for (let id = 0; id < vocabulary; id++) {
    const term = terms[id]!;
    if (term.length >= FUZZY_MIN - 1) {
      for (const key of [`${term.length}:${term[0]}`, `${term.length}~${term[term.length - 1]}`]) {
        const list = shapes.get(key);
        if (list) list.push(id);
        else shapes.set(key, [id]);
      }
    }
    if ((id + 1) % (POSTINGS_CHUNK * 10) === 0) yield;
  }
  return { offsets, docs: allDocs, weights: allWeights, sorted, shapes };
}

const PREFIX_MIN = 4;
const PREFIX_WEIGHT = 0.5;
const PREFIX_MAX_EXPANSIONS = 30;
const FUZZY_MIN = 5;
const FUZZY_WEIGHT = 0.4;

export class InvertedIndex {
  readonly size: number;
  private readonly terms: string[];
  private readonly termIds: Map<string, number>;
  /** Postings (see Postings): term t's are at postingOffsets[t] … postingOffsets[t + 1] - 1. */
  private readonly postingOffsets: Int32Array;
  private readonly postingDocs: Int32Array;
  private readonly postingWeights: Float32Array;
  /** Term ids sorted by their text, for prefix ranges. */
  private readonly sorted: Int32Array;
  /** Term ids by `${length}:${first letter}` and `${length}~${last letter}`, for typo candidates. */
  private readonly shapes: Map<string, number[]>;
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  /**
   * The index built in steps: the documents are analysed ANALYSE_CHUNK at a time, then their postings built about as
   * many documents (or terms) at a time. At 100,000 startups the postings alone were 3.5 s in one step.
   */
  static *build(documents: readonly (readonly string[])[], options: IndexOptions): Steps<InvertedIndex> {
    const analysed = yield* analyse(documents, options.fields.length);
    yield;
    const postings = yield* postingsOf(analysed, options);
    return new InvertedIndex(analysed, options, postings);
  }

  constructor(documents: readonly (readonly string[])[] | Analysed, options: IndexOptions, built?: Postings) {
    const analysed = Array.isArray(documents)
      ? drain(analyse(documents, options.fields.length))
      : (documents as Analysed);
    this.size = analysed.size;
    this.terms = analysed.terms;
    this.termIds = analysed.termIds;
    const postings = built ?? drain(postingsOf(analysed, options));
    this.postingOffsets = postings.offsets;
    this.postingDocs = postings.docs;
    this.postingWeights = postings.weights;
    this.sorted = postings.sorted;
    this.shapes = postings.shapes;
    this.scores = new Float64Array(this.size);
    this.touched = new Int32Array(this.size);
  }

  get vocabularySize(): number {
    return this.terms.length;
  }

  /** How many documents hold a term. */
  private frequency(id: number): number {
    return this.postingOffsets[id + 1]! - this.postingOffsets[id]!;
  }

  /** Index terms a query term stands for, with their weights. */
  private expand(term: string): [number, number][] {
    const found: [number, number][] = [];
    const exact = this.termIds.get(term);
    if (exact !== undefined) found.push([exact, 1]);
    if (term.length >= PREFIX_MIN) {
      let lo = 0;
      let hi = this.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.terms[this.sorted[mid]!]! < term) lo = mid + 1;
        else hi = mid;
      }
      const extensions: number[] = [];
      for (let i = lo; i < this.sorted.length; i++) {
        const id = this.sorted[i]!;
        const candidate = this.terms[id]!;
        if (!candidate.startsWith(term)) break;
        if (id !== exact) extensions.push(id);
      }
      extensions
        .sort((x, y) => this.frequency(y) - this.frequency(x))
        .slice(0, PREFIX_MAX_EXPANSIONS)
        .forEach((id) => found.push([id, PREFIX_WEIGHT]));
    }
    if (exact === undefined && term.length >= FUZZY_MIN) {
      const first = term[0]!;
      for (let length = term.length - 1; length <= term.length + 1; length++) {
        for (const id of this.shapes.get(`${length}:${first}`) ?? []) {
          if (distance(term, this.terms[id]!) === 1) found.push([id, FUZZY_WEIGHT]);
        }
        // The terms of this length that also start with the query's first letter were in the list above. (No set of
        // the ids seen: at 100,000 startups these lists hold thousands of names' words, and a set of them was most of
        // what a mistyped query allocated.)
        for (const id of this.shapes.get(`${length}~${term[term.length - 1]}`) ?? []) {
          const candidate = this.terms[id]!;
          if (candidate[0] !== first && distance(term, candidate) === 1) found.push([id, FUZZY_WEIGHT]);
        }
      }
    }
    return found;
  }

  /**
   * The `limit` best documents for `query` among those `accept` lets through (all by default), best first, ties by
   * document order; `total` counts every accepted document that matches at least one term.
   *
   * `commonShare` (0–1), when given, drops query terms found in more than that share of the documents as long as the
   * query has rarer terms: they add almost nothing to BM25 (their idf is near zero) but cost the most postings. The
   * ranking barely moves; `total` then counts matches of the rarer terms only, so callers that report totals leave it
   * unset.
   */
  search(query: string, limit: number, accept?: (doc: number) => boolean, commonShare?: number): IndexResult {
    const terms = contentTerms(query);
    const { scores, touched, postingOffsets, postingDocs, postingWeights } = this;
    let expanded = terms.map((term) => this.expand(term));
    if (commonShare !== undefined) {
      const cutoff = commonShare * this.size;
      const frequency = (list: [number, number][]) => Math.max(0, ...list.map(([id]) => this.frequency(id)));
      const rare = expanded.filter((list) => list.length > 0 && frequency(list) <= cutoff);
      if (rare.length > 0) expanded = rare;
    }
    let count = 0;
    for (const list of expanded) {
      for (const [id, weight] of list) {
        for (let i = postingOffsets[id]!, end = postingOffsets[id + 1]!; i < end; i++) {
          const doc = postingDocs[i]!;
          if (scores[doc] === 0) touched[count++] = doc;
          scores[doc]! += weight * postingWeights[i]!;
        }
      }
    }
    // Top-k by a small sorted buffer: k ≤ 50, so insertion beats a heap and keeps ties in document order.
    const hits: ScoredDoc[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (accept && !accept(doc)) continue;
      total++;
      if (limit <= 0) continue;
      if (hits.length === limit) {
        const last = hits[limit - 1]!;
        if (score < last.score || (score === last.score && doc > last.doc)) continue;
        hits.pop();
      }
      let at = hits.length;
      while (at > 0 && (hits[at - 1]!.score < score || (hits[at - 1]!.score === score && hits[at - 1]!.doc > doc))) {
        at--;
      }
      hits.splice(at, 0, { doc, score });
    }
    return { total, hits, terms };
  }
}
