import type { SearchHit, SearchType } from '../../schemas/answers.js';
import { snippet } from './snippet.js';
import type { Steps } from '../../snapshot/steps.js';
import { InvertedIndex } from './inverted-index.js';

/** One page of the site as the search index sees it. */
export interface SearchDocument {
  type: SearchType;
  url: string;
  title: string;
  /** The text snippets are cut from. */
  text: string;
  /** Extra words the document answers to (organisation login, sector slug). Indexed, never shown. */
  keywords?: string;
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
 */
const fieldsOf = (documents: readonly SearchDocument[]) => documents.map((d) => [d.title, d.keywords ?? '', d.text]);
const INDEX_OPTIONS = { fields: [{ boost: 3 }, { boost: 2 }, { boost: 1 }] };

export class SiteSearch {
  private readonly index: InvertedIndex;

  /** The search built in steps (see steps.ts). */
  static *build(documents: readonly SearchDocument[]): Steps<SiteSearch> {
    return new SiteSearch(documents, yield* InvertedIndex.build(fieldsOf(documents), INDEX_OPTIONS));
  }

  constructor(
    private readonly documents: readonly SearchDocument[],
    index?: InvertedIndex,
  ) {
    this.index = index ?? new InvertedIndex(fieldsOf(documents), INDEX_OPTIONS);
  }

  get size(): number {
    return this.documents.length;
  }

  search(query: string, options: { type?: SearchType | undefined; limit: number }): SearchResult {
    const { type } = options;
    const accept = type ? (doc: number) => this.documents[doc]!.type === type : undefined;
    const result = this.index.search(query, options.limit, accept);
    const hits = result.hits.map(({ doc, score }): SearchHit => {
      const d = this.documents[doc]!;
      return {
        url: d.url,
        title: d.title,
        snippet: snippet(d.text, result.terms),
        type: d.type,
        score: Math.round(score * 1000) / 1000,
      };
    });
    return { total: result.total, hits };
  }
}
