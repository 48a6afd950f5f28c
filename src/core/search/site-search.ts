import type { SearchHit, SearchType } from '../../schemas/answers.js';
import { snippet } from './snippet.js';
import { drain, type Steps } from '../../snapshot/steps.js';
import { DocSet } from './doc-set.js';
import { InvertedIndex, type ScoredDoc } from './inverted-index.js';
import { words } from './text.js';

/** One page of the site as the search index sees it. */
export interface SearchDocument {
  type: SearchType;
  url: string;
  title: string;
  /** The text snippets are cut from. */
  text: string;
  /** Extra words the document answers to (organisation login, sector slug). Indexed, never shown. */
  keywords?: string;
  /** The name of the startup or sector the page is about: a query equal to it (case, accents and punctuation aside) ranks this page first. */
  name?: string;
}

export interface SearchResult {
  total: number;
  hits: SearchHit[];
}

/**
 * Site-wide token-overlap search: a BM25F inverted index (inverted-index.ts) over the title, keywords and text of
 * every document, built once per snapshot. A query is analysed like the documents (folded, stop words dropped,
 * stemmed), matches on any term (prefix for terms of 4+ letters, one edit for unknown terms of 5+), and is ranked by
 * BM25 with title matches weighted 3× and keywords 2×. `type` restricts the hits to one document type.
 *
 * A query that is exactly the name of a startup or a sector (compared as words: case, accents and punctuation
 * aside) puts that page first, whatever BM25 says: "robotics" is the Robotics sector before any page that merely
 * repeats the word. Its score is its own BM25 score plus the best score of the other hits, so scores still fall
 * down the list.
 */
const fieldsOf = (documents: readonly SearchDocument[]) => drain(fieldsInSteps(documents));

const INDEX_OPTIONS = { fields: [{ boost: 3 }, { boost: 2 }, { boost: 1 }] };

/** The documents by name and by type (see SiteSearch). */
interface Lookups {
  byName: Map<string, number[]>;
  byType: Map<SearchType, DocSet>;
}

/** Documents handled per step when the fields and the lookups are built in steps. */
const LOOKUP_CHUNK = 5_000;

/**
 * Each document's indexed fields, in steps of LOOKUP_CHUNK documents: a document's keywords and text are built when
 * first read, and at 100,000 startups reading them all was over a second of work in one step.
 */
function* fieldsInSteps(documents: readonly SearchDocument[]): Steps<string[][]> {
  const fields: string[][] = [];
  for (let i = 0; i < documents.length; i++) {
    const d = documents[i]!;
    fields.push([d.title, d.keywords ?? '', d.text]);
    if ((i + 1) % LOOKUP_CHUNK === 0) yield;
  }
  return fields;
}

/** The lookups of `documents`, in steps: at 100,000 startups, folding 200,000 names was over a second of work. */
function* lookupsOf(documents: readonly SearchDocument[]): Steps<Lookups> {
  const byName = new Map<string, number[]>();
  const byType = new Map<SearchType, DocSet>();
  for (let i = 0; i < documents.length; i++) {
    const d = documents[i]!;
    let ofType = byType.get(d.type);
    if (!ofType) byType.set(d.type, (ofType = new DocSet(documents.length)));
    ofType.add(i);
    const key = d.name ? nameKey(d.name) : '';
    if (key) {
      const list = byName.get(key);
      if (list) list.push(i);
      else byName.set(key, [i]);
    }
    if ((i + 1) % LOOKUP_CHUNK === 0) yield;
  }
  return { byName, byType };
}

export class SiteSearch {
  private readonly index: InvertedIndex;
  /** Documents by their name as words joined by one space. */
  private readonly byName: Map<string, number[]>;
  /** The documents of each type, for a search restricted to one. */
  private readonly byType: Map<SearchType, DocSet>;

  /** The search built in steps (see steps.ts). */
  static *build(documents: readonly SearchDocument[]): Steps<SiteSearch> {
    const index = yield* InvertedIndex.build(yield* fieldsInSteps(documents), INDEX_OPTIONS);
    return new SiteSearch(documents, index, yield* lookupsOf(documents));
  }

  constructor(
    private readonly documents: readonly SearchDocument[],
    index?: InvertedIndex,
    lookups?: Lookups,
  ) {
    this.index = index ?? new InvertedIndex(fieldsOf(documents), INDEX_OPTIONS);
    ({ byName: this.byName, byType: this.byType } = lookups ?? drain(lookupsOf(documents)));
  }

  get size(): number {
    return this.documents.length;
  }

  search(query: string, options: { type?: SearchType | undefined; limit: number }): SearchResult {
    const { type } = options;
    const within = type ? (this.byType.get(type) ?? new DocSet(this.documents.length)) : undefined;
    const named = (this.byName.get(nameKey(query)) ?? []).filter((doc) => !within || within.has(doc));
    const result = this.index.search(query, options.limit + named.length, within);
    let ranked: ScoredDoc[] = result.hits;
    let total = result.total;
    if (named.length > 0) {
      const others = result.hits.filter((h) => !named.includes(h.doc));
      const best = others[0]?.score ?? 0;
      const own = new Map(result.hits.map((h) => [h.doc, h.score]));
      ranked = [...named.map((doc) => ({ doc, score: (own.get(doc) ?? 0) + best })), ...others];
      // A name made only of stop words matches no index term, so the index did not count it.
      total += named.filter((doc) => !own.has(doc) && result.terms.length === 0).length;
    }
    const hits = ranked.slice(0, options.limit).map(({ doc, score }): SearchHit => {
      const d = this.documents[doc]!;
      return {
        url: d.url,
        title: d.title,
        snippet: snippet(d.text, result.terms),
        type: d.type,
        score: Math.round(score * 1000) / 1000,
      };
    });
    return { total, hits };
  }
}

/** A name or query as its lower-case, accent-free words joined by one space. */
const nameKey = (text: string): string => words(text).join(' ');
