import { distance } from 'fastest-levenshtein';
import { drain, sortInSteps, type Steps } from '../../snapshot/steps.js';
import { bitCount } from '../../domain/matcher.js';
import { DocSet } from './doc-set.js';
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
 * A term in thousands of documents ("startup", "data" on a site of startup pages) would make every query that holds it
 * a walk over most of the documents, and at 100,000 startups that walk was most of a query's time. Such a term (see
 * CommonTerm) also keeps the set of its documents as bits and its best postings in ranking order, and a query walks
 * only the postings of its rarer terms: the documents they find get the common terms' weights by lookup, the
 * documents only the common terms find are taken from the common terms' best postings, and `total` comes from the
 * sets' bits. When those best postings cannot prove that no other document beats the k-th hit, the query walks all
 * its terms but the most common one, and failing that, every posting. Either way the hits, their scores (summed in
 * the same order) and the total are the full walk's, as a property test checks.
 *
 * Why by hand: a general-purpose library (MiniSearch) answers in 50–180 ms at 50,000 documents (common words match
 * most documents and it scores them through maps and objects) against a 5 ms goal (docs/api.md).
 */
export interface IndexField {
  boost: number;
}

export interface IndexOptions {
  /** One entry per field, in the order texts are given for each document. */
  fields: readonly IndexField[];
  k1?: number;
  b?: number;
  /** A term in at least this many documents is common (see CommonTerm); default the larger of 4,096 and 1/64 of them. */
  commonMin?: number;
  /** How many best postings a common term keeps (default 128). */
  topPostings?: number;
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
  common: Map<number, CommonTerm>;
}

/**
 * What a term in many documents keeps besides its postings: the set of its documents (for `total` without walking
 * them) and the positions of its TOP_POSTINGS best postings, best first (by weight, then by document number, which is
 * the order its documents rank in when it is a query's only common term).
 */
interface CommonTerm {
  docs: DocSet;
  top: Int32Array;
}

const COMMON_MIN = 4_096;
const COMMON_SHARE = 1 / 64;
const TOP_POSTINGS = 128;

/** A common term's document set and best postings (see CommonTerm); its postings are at from … to - 1. */
function commonTerm(
  docs: Int32Array,
  weights: Float32Array,
  from: number,
  to: number,
  size: number,
  keep: number,
): CommonTerm {
  const set = new DocSet(size);
  for (let i = from; i < to; i++) set.add(docs[i]!);
  // A heap of the best postings so far whose root ranks last among them. Documents come in ascending order, so a
  // later posting of the same weight ranks after the root and only a heavier one replaces it.
  const heap = new Int32Array(Math.min(keep, to - from));
  const after = (a: number, b: number) =>
    weights[a]! < weights[b]! || (weights[a] === weights[b] && docs[a]! > docs[b]!);
  const down = (n: number) => {
    for (let at = 0; ;) {
      const left = 2 * at + 1;
      if (left >= n) return;
      const child = left + 1 < n && after(heap[left + 1]!, heap[left]!) ? left + 1 : left;
      if (!after(heap[child]!, heap[at]!)) return;
      [heap[at], heap[child]] = [heap[child]!, heap[at]!];
      at = child;
    }
  };
  let n = 0;
  for (let i = from; i < to; i++) {
    if (n < heap.length) {
      heap[n] = i;
      for (let at = n++; at > 0;) {
        const parent = (at - 1) >> 1;
        if (!after(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (weights[i]! > weights[heap[0]!]!) {
      heap[0] = i;
      down(n);
    }
  }
  const top = Int32Array.from(heap).sort((a, b) => weights[b]! - weights[a]! || docs[a]! - docs[b]!);
  return { docs: set, top };
}

/** Documents (then terms) handled per step when the postings are built in steps. */
const POSTINGS_CHUNK = 2_000;
/** (term, document, weight) triples bucketed per step. */
const PAIR_CHUNK = 250_000;

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
    // Millions of triples at 100,000 startups: a quarter of a second in one step.
    if ((i + 1) % PAIR_CHUNK === 0) yield;
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
      for (const key of [`${term.length}:${term.slice(0, 2)}`, `${term.length}~${term.slice(-2)}`]) {
        const list = shapes.get(key);
        if (list) list.push(id);
        else shapes.set(key, [id]);
      }
    }
    if ((id + 1) % (POSTINGS_CHUNK * 10) === 0) yield;
  }
  const common = new Map<number, CommonTerm>();
  const commonMin = options.commonMin ?? Math.max(COMMON_MIN, Math.ceil(size * COMMON_SHARE));
  const topPostings = options.topPostings ?? TOP_POSTINGS;
  for (let id = 0; id < vocabulary; id++) {
    if (df[id]! < commonMin) continue;
    common.set(id, commonTerm(allDocs, allWeights, offsets[id]!, offsets[id + 1]!, size, topPostings));
    yield;
  }
  return { offsets, docs: allDocs, weights: allWeights, sorted, shapes, common };
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
  /** Term ids by `${length}:${first two letters}` and `${length}~${last two letters}`, for typo candidates. */
  private readonly shapes: Map<string, number[]>;
  /** Terms in many documents (see CommonTerm), by term id. */
  private readonly common: Map<number, CommonTerm>;
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;
  /** Per document, the number of the last query that took it as a candidate (see `mark`). */
  private readonly seen: Int32Array;
  private mark = 0;
  /** The words of the union of a query's common terms' document sets. */
  private readonly union: Uint32Array;

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
    this.common = postings.common;
    this.scores = new Float64Array(this.size);
    this.touched = new Int32Array(this.size);
    this.seen = new Int32Array(this.common.size > 0 ? this.size : 0);
    this.union = new Uint32Array(this.common.size > 0 ? Math.ceil(this.size / 32) : 0);
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
      // A term one edit from a query term of 5+ letters keeps either its first two letters or its last two (the edit
      // is in one half), so the candidates are the terms of each length within one of those two shapes.
      const head = term.slice(0, 2);
      const tail = term.slice(-2);
      for (let length = term.length - 1; length <= term.length + 1; length++) {
        const sameFirst: number[] = [];
        const otherFirst: number[] = [];
        for (const id of this.shapes.get(`${length}:${head}`) ?? []) {
          if (distance(term, this.terms[id]!) === 1) sameFirst.push(id);
        }
        const fromHead = sameFirst.length;
        for (const id of this.shapes.get(`${length}~${tail}`) ?? []) {
          const candidate = this.terms[id]!;
          if (candidate.startsWith(head) || distance(term, candidate) !== 1) continue;
          (candidate[0] === term[0] ? sameFirst : otherFirst).push(id);
        }
        // Those that share the query's first letter first, then the others, each in term order: a fixed order, so a
        // document's score adds its terms' weights in the same order every time.
        if (sameFirst.length > fromHead && fromHead > 0) sameFirst.sort((x, y) => x - y);
        for (const id of sameFirst) found.push([id, FUZZY_WEIGHT]);
        for (const id of otherFirst) found.push([id, FUZZY_WEIGHT]);
      }
    }
    return found;
  }

  /** Where document `doc` is in term `id`'s postings, or -1. */
  private find(id: number, doc: number): number {
    const end = this.postingOffsets[id + 1]!;
    const at = this.seek(this.postingOffsets[id]!, end, doc);
    return at < end && this.postingDocs[at] === doc ? at : -1;
  }

  /**
   * The first position from `from` (up to `end`) whose document is not below `doc`. Documents in a term's postings
   * are distinct and ascending, so it is at most `doc - docs[from]` places on: a binary search over that gap, which
   * for a term in most documents is a few places (seeking ascending documents one after another from where the last
   * one was found).
   */
  private seek(from: number, end: number, doc: number): number {
    const docs = this.postingDocs;
    if (from >= end || docs[from]! >= doc) return from;
    let hi = Math.min(end, from + (doc - docs[from]!) + 1);
    // No document missing in between: the place is the bound itself (most places, for a term in most documents).
    if (docs[hi - 1] === doc) return hi - 1;
    let lo = from + 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The `limit` best documents for `query` among those in `within` (all by default), best first, ties by document
   * order; `total` counts every such document that matches at least one term.
   *
   * `commonShare` (0–1), when given, drops query terms found in more than that share of the documents as long as the
   * query has rarer terms: they add almost nothing to BM25 (their idf is near zero) but cost the most postings. The
   * ranking barely moves; `total` then counts matches of the rarer terms only, so callers that report totals leave it
   * unset.
   */
  search(query: string, limit: number, within?: DocSet, commonShare?: number): IndexResult {
    const terms = contentTerms(query);
    let expanded = terms.map((term) => this.expand(term));
    if (commonShare !== undefined) {
      const cutoff = commonShare * this.size;
      const frequency = (list: [number, number][]) => Math.max(0, ...list.map(([id]) => this.frequency(id)));
      const rare = expanded.filter((list) => list.length > 0 && frequency(list) <= cutoff);
      if (rare.length > 0) expanded = rare;
    }
    const pairs = expanded.flat();
    const found = this.searchSkipping(pairs, limit, within) ?? this.searchAll(pairs, limit, within);
    return { ...found, terms };
  }

  /** Every posting of every term summed into a score per document, then the best `limit` of them. */
  private searchAll(pairs: readonly [number, number][], limit: number, within?: DocSet): Found {
    const { scores, touched, postingOffsets, postingDocs, postingWeights } = this;
    let count = 0;
    for (const [id, weight] of pairs) {
      for (let i = postingOffsets[id]!, end = postingOffsets[id + 1]!; i < end; i++) {
        const doc = postingDocs[i]!;
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc]! += weight * postingWeights[i]!;
      }
    }
    const hits: ScoredDoc[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (within && !within.has(doc)) continue;
      total++;
      offer(hits, limit, doc, score);
    }
    return { total, hits };
  }

  /**
   * The same answer as searchAll without walking every posting of the query's common terms (see CommonTerm), or
   * undefined when the query has none or skipping them cannot settle the hits. First every common term is skipped;
   * when that cannot settle them (several common terms tie for the best postings of each), all but the most common
   * one are walked and that one skipped.
   */
  private searchSkipping(pairs: readonly [number, number][], limit: number, within?: DocSet): Found | undefined {
    const common = pairs.map(([id]) => this.common.has(id));
    const skipped = common.filter(Boolean).length;
    if (skipped === 0) return undefined;
    const found = this.searchCommon(pairs, common, limit, within);
    if (found || skipped === 1) return found;
    let most = -1;
    pairs.forEach(([id], i) => {
      if (common[i] && (most < 0 || this.frequency(id) > this.frequency(pairs[most]![0]))) most = i;
    });
    if (pairs.some(([id], i) => i !== most && id === pairs[most]![0])) return undefined;
    return this.searchCommon(
      pairs,
      pairs.map((_, i) => i === most),
      limit,
      within,
    );
  }

  private searchCommon(
    pairs: readonly [number, number][],
    skip: readonly boolean[],
    limit: number,
    within?: DocSet,
  ): Found | undefined {
    const commonPairs = pairs.filter((_, i) => skip[i]);
    const mark = this.nextMark();
    // Each step is a method of its own: V8 optimises a loop in a small function with steady type feedback, and one
    // long function deoptimised again and again at its rarely run parts.
    const { count, ascending } = this.collect(pairs, skip, within, mark);
    this.scoreCollected(pairs, skip, count, ascending, mark);
    const hits = this.offerCollected(count, limit);
    const scored = this.offerTop(commonPairs, within, mark, hits, limit);
    const { total, left } = this.totalOf(commonPairs, count, within);
    if (left === scored || limit <= 0) return { total, hits };
    return hits.length === limit && this.beatsTheRest(commonPairs, hits[limit - 1]!) ? { total, hits } : undefined;
  }

  /** The documents of the terms not skipped, each once, in `touched`: how many, and whether they ascend. */
  private collect(
    pairs: readonly [number, number][],
    skip: readonly boolean[],
    within: DocSet | undefined,
    mark: number,
  ): { count: number; ascending: boolean } {
    const { seen, touched, postingOffsets, postingDocs } = this;
    let count = 0;
    let ascending = true;
    for (let i = 0; i < pairs.length; i++) {
      if (skip[i]) continue;
      const id = pairs[i]![0];
      for (let p = postingOffsets[id]!, end = postingOffsets[id + 1]!; p < end; p++) {
        const doc = postingDocs[p]!;
        if (seen[doc] !== mark && (!within || within.has(doc))) {
          seen[doc] = mark;
          if (count > 0 && doc < touched[count - 1]!) ascending = false;
          touched[count++] = doc;
        }
      }
    }
    return { count, ascending };
  }

  /**
   * The collected documents' scores, term by term in the query's order. A skipped term's weights are looked up for
   * each document (seeking forward from the last one found when the documents ascend), or read in one walk of its
   * postings when that is cheaper.
   */
  private scoreCollected(
    pairs: readonly [number, number][],
    skip: readonly boolean[],
    count: number,
    ascending: boolean,
    mark: number,
  ): void {
    const { seen, scores, touched, postingOffsets, postingDocs, postingWeights } = this;
    for (let i = 0; i < pairs.length; i++) {
      const [id, weight] = pairs[i]!;
      const from = postingOffsets[id]!;
      const end = postingOffsets[id + 1]!;
      const perLookup = ascending ? Math.log2((end - from) / Math.max(1, count) + 1) + 1 : Math.log2(end - from) + 1;
      if (skip[i] && count * perLookup < end - from) {
        for (let k = 0, at = from; k < count; k++) {
          const doc = touched[k]!;
          const found = this.seek(ascending ? at : from, end, doc);
          if (found < end && postingDocs[found] === doc) scores[doc]! += weight * postingWeights[found]!;
          if (ascending) at = found;
        }
      } else {
        for (let p = from; p < end; p++) {
          const doc = postingDocs[p]!;
          if (seen[doc] === mark) scores[doc]! += weight * postingWeights[p]!;
        }
      }
    }
  }

  /** The best `limit` of the collected documents; their scores are reset for the next query. */
  private offerCollected(count: number, limit: number): ScoredDoc[] {
    const { scores, touched } = this;
    const hits: ScoredDoc[] = [];
    for (let k = 0; k < count; k++) {
      const doc = touched[k]!;
      offer(hits, limit, doc, scores[doc]!);
      scores[doc] = 0;
    }
    return hits;
  }

  /**
   * Offers the documents of the skipped terms' best postings that were not collected, each scored by the skipped
   * terms (the only ones it holds); returns how many it scored.
   */
  private offerTop(
    commonPairs: readonly [number, number][],
    within: DocSet | undefined,
    mark: number,
    hits: ScoredDoc[],
    limit: number,
  ): number {
    const { seen, postingDocs, postingWeights } = this;
    let scored = 0;
    for (const [id] of commonPairs) {
      for (const at of this.common.get(id)!.top) {
        const doc = postingDocs[at]!;
        if (seen[doc] === mark || (within && !within.has(doc))) continue;
        seen[doc] = mark;
        scored++;
        let score = 0;
        for (const [other, weight] of commonPairs) {
          const there = other === id ? at : this.find(other, doc);
          if (there >= 0) score += weight * postingWeights[there]!;
        }
        offer(hits, limit, doc, score);
      }
    }
    return scored;
  }

  /**
   * The total (the skipped terms' documents within the filter, and the collected documents outside them) and how
   * many of the skipped terms' documents were not collected (`left`).
   */
  private totalOf(
    commonPairs: readonly [number, number][],
    count: number,
    within: DocSet | undefined,
  ): { total: number; left: number } {
    const { union, touched } = this;
    union.fill(0);
    for (const [id] of commonPairs) {
      const words = this.common.get(id)!.docs.words;
      for (let w = 0; w < words.length; w++) union[w]! |= words[w]!;
    }
    let left = 0;
    for (let w = 0; w < union.length; w++) {
      if (within) union[w]! &= within.words[w]!;
      left += bitCount(union[w]!);
    }
    let total = left;
    for (let k = 0; k < count; k++) {
      const doc = touched[k]!;
      if ((union[doc >>> 5]! & (1 << (doc & 31))) === 0) total++;
      else left--;
    }
    return { total, left };
  }

  /**
   * Whether no document outside the candidates can beat `kth`. Such a document holds each skipped term at most at
   * the weight of that term's last best posting, so it scores at most their sum (rounding is monotone, so the
   * inequality survives floating point). With one skipped term the best postings are in ranking order, so `kth`
   * need only rank at or before the last of them.
   */
  private beatsTheRest(commonPairs: readonly [number, number][], kth: ScoredDoc): boolean {
    const { postingDocs, postingWeights } = this;
    if (commonPairs.length === 1) {
      const [id, weight] = commonPairs[0]!;
      const top = this.common.get(id)!.top;
      const last = top[top.length - 1]!;
      const lastScore = weight * postingWeights[last]!;
      return kth.score > lastScore || (kth.score === lastScore && kth.doc <= postingDocs[last]!);
    }
    let bound = 0;
    for (const [id, weight] of commonPairs) {
      const top = this.common.get(id)!.top;
      bound += weight * postingWeights[top[top.length - 1]!]!;
    }
    return kth.score > bound;
  }

  /** A number no document's `seen` holds yet. */
  private nextMark(): number {
    if (this.mark === 0x7fffffff) {
      this.seen.fill(0);
      this.mark = 0;
    }
    return ++this.mark;
  }
}

interface Found {
  total: number;
  hits: ScoredDoc[];
}

/**
 * Offers a scored document to the best `limit` so far, kept best first with ties in document order: k ≤ 50 or so,
 * so insertion into a small sorted list beats a heap.
 */
function offer(hits: ScoredDoc[], limit: number, doc: number, score: number): void {
  if (limit <= 0) return;
  if (hits.length === limit) {
    const last = hits[limit - 1]!;
    if (score < last.score || (score === last.score && doc > last.doc)) return;
    hits.pop();
  }
  let at = hits.length;
  while (at > 0 && (hits[at - 1]!.score < score || (hits[at - 1]!.score === score && hits[at - 1]!.doc > doc))) at--;
  hits.splice(at, 0, { doc, score });
}
