import { randomUUID } from 'node:crypto';
import type { SearchHit } from '../../schemas/answers.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { siteSearch } from '../search/documents.js';
import { toHit } from './answer-index.js';
import { bestAnswer } from './answer.js';
import { nlwebAnswer, organization, type JsonLd } from './nlweb.js';

/**
 * The NLWeb `/ask` protocol over the service's own answers: a query answered as a list of schema.org items
 * (`results[]`, each `{url, name, site, siteUrl, score, description, schema_object, ranking_type}`), as one JSON
 * object or as a stream of messages, each carrying `message_type` and `query_id`:
 *   api_version → decontextualized_query → result_batch (or no_results) → summary / nlws (when asked for) → complete.
 * The results come first from the answer service (the same best answer as POST /api/nlweb: the startups of a list
 * question, the startup asked about, the FAQ or data answer), `ranking_type: "answer"`, then from the site search
 * (the same hits as GET /api/llms-search), `ranking_type: "search"`, without repeating a URL. Scores are 0–100:
 * an answer's confidence, and a search hit's BM25 score relative to the best hit (at most SEARCH_SCORE_MAX, below
 * the score from which an answer is confident: a page that shares the query's words is not an answer to it). This server holds one site; `site` is echoed, and `prev` is accepted but does not change the query (no
 * model rewrites it): `decontextualized_query`, when sent, is the query answered.
 */
export const NLWEB_API_VERSION = '0.1';

/**
 * The highest score of a site-search hit: below 70, a confident answer's (confidence 0.7), so that a page sharing a
 * word of an unanswered question ("capital" of a fund's name) never reads as a confident answer about it.
 */
export const SEARCH_SCORE_MAX = 60;

export const NLWEB_MODES = ['list', 'summarize', 'generate'] as const;
export type NlwebMode = (typeof NLWEB_MODES)[number];

export interface NlwebAskInput {
  query: string;
  site?: string | undefined;
  prev?: string[] | undefined;
  decontextualizedQuery?: string | undefined;
  queryId?: string | undefined;
  mode: NlwebMode;
  limit: number;
}

export interface NlwebResult {
  url: string;
  name: string;
  site: string;
  siteUrl: string;
  score: number;
  description: string;
  schema_object: Record<string, unknown>;
  ranking_type: 'answer' | 'search';
}

export type NlwebMessage = { message_type: string; query_id: string } & Record<string, unknown>;

const SEARCH_TYPES: Record<SearchHit['type'], string> = {
  startup: 'Organization',
  sector: 'CollectionPage',
  blog: 'BlogPosting',
  comparison: 'WebPage',
  answer: 'Question',
  faq: 'Question',
  research: 'ScholarlyArticle',
};

function itemsOf(ld: JsonLd): Record<string, unknown>[] {
  if (ld['@type'] === 'ItemList') {
    return ((ld.itemListElement ?? []) as { item: Record<string, unknown> }[]).map((e) => e.item);
  }
  const { '@context': _context, ...item } = ld;
  return [item];
}

/** The messages answering one query, in stream order (the non-streaming answer folds them into one object). */
export function nlwebAsk(snapshot: Snapshot, baseUrl: string, input: NlwebAskInput): NlwebMessage[] {
  const queryId = input.queryId ?? `nlweb-${randomUUID()}`;
  const query = (input.decontextualizedQuery ?? input.query).trim();
  const site = input.site?.trim() || 'all';
  const siteUrl = `${baseUrl}/`;
  const message = (type: string, fields: Record<string, unknown> = {}): NlwebMessage => ({
    message_type: type,
    query_id: queryId,
    ...fields,
  });
  const messages: NlwebMessage[] = [
    message('api_version', { api_version: NLWEB_API_VERSION }),
    message('decontextualized_query', { decontextualized_query: query }),
  ];

  const results: NlwebResult[] = [];
  const seen = new Set<string>();
  const add = (result: NlwebResult) => {
    if (seen.has(result.url) || results.length >= input.limit) return;
    seen.add(result.url);
    results.push(result);
  };

  const best = bestAnswer(snapshot, baseUrl, query);
  if (best.found) {
    const confidence = Math.round(best.hit.confidence * 100);
    for (const item of itemsOf(nlwebAnswer(snapshot, baseUrl, query))) {
      const url = String(item['url'] ?? best.hit.entry.url);
      add({
        url,
        name: String(item['name'] ?? best.hit.entry.question),
        site,
        siteUrl,
        score: confidence,
        description: String(item['description'] ?? best.hit.entry.answer),
        schema_object: item,
        ranking_type: 'answer',
      });
    }
  }

  // A question about a name the service does not hold, a sector it does not have or a prediction is answered as
  // every other surface answers it: no result, the reason and the near names. Search hits would put another
  // entity's record where the answer about the one asked belongs.
  const declined = !best.found && best.reason !== 'no-match';
  const search = declined ? { hits: [] } : siteSearch(snapshot, baseUrl).search(query, { limit: input.limit });
  const top = search.hits[0]?.score ?? 0;
  for (const hit of search.hits) {
    const login = hit.type === 'startup' ? decodeURIComponent(hit.url.split('/').pop() ?? '') : undefined;
    const startup = login ? snapshot.byLogin.get(login.toLowerCase()) : undefined;
    add({
      url: hit.url,
      name: hit.title,
      site,
      siteUrl,
      score: top > 0 ? Math.round((SEARCH_SCORE_MAX * hit.score) / top) : 0,
      description: hit.snippet,
      schema_object: startup
        ? (organization(startup, snapshot, baseUrl) as unknown as Record<string, unknown>)
        : { '@type': SEARCH_TYPES[hit.type], name: hit.title, url: hit.url, description: hit.snippet },
      ranking_type: 'search',
    });
  }

  if (results.length > 0) messages.push(message('result_batch', { results }));
  else {
    messages.push(
      message('no_results', {
        // The reason names the near names (not substituted), as the other surfaces' detail does.
        message: best.found ? `No page matches "${query}".` : best.detail,
      }),
    );
  }

  if (input.mode !== 'list') {
    if (best.found) {
      const hit = toHit(best.hit);
      if (input.mode === 'summarize') messages.push(message('summary', { message: hit.answer }));
      else {
        messages.push(
          message('nlws', {
            answer: hit.answer,
            items: [
              { url: hit.url, name: hit.question, description: hit.answer },
              ...hit.facts.map((f) => ({ url: f.sourceUrl, name: f.claim })),
            ],
          }),
        );
      }
    } else if (results.length > 0) {
      messages.push(message('no_results', { message: best.detail }));
    }
  }
  messages.push(message('complete'));
  return messages;
}

/** The non-streaming answer: `results` plus one key for every other message type (the last message of each type). */
export function foldMessages(messages: readonly NlwebMessage[]): Record<string, unknown> {
  const out: Record<string, unknown> = { query_id: messages[0]?.query_id, results: [] };
  for (const m of messages) {
    const { message_type: type, query_id: _id, ...fields } = m;
    if (type === 'result_batch') out['results'] = [...(out['results'] as unknown[]), ...(fields['results'] as [])];
    else if (type === 'complete') continue;
    else {
      const keys = Object.keys(fields);
      out[type] = keys.length === 1 ? fields[keys[0]!] : fields;
    }
  }
  return out;
}
