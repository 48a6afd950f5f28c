import type { RelatedQuestion } from '../../schemas/answers.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { siteUrls } from '../../domain/urls.js';
import type { ScoredAnswer } from './answer-index.js';
import { MIN_CONFIDENCE } from './confidence.js';
import { answerCorpus } from './corpus.js';
import { understand, understoodNotice } from './understand.js';

/** Why a question has no answer: the `reason` of /api/answer's 404 and of the agents' answer tool. */
export type NoAnswerReason = 'no-match' | 'not-tracked' | 'ambiguous' | 'no-sector' | 'out-of-scope';

/** The single best answer to a question, or why there is none, with what to try instead. */
export type BestAnswer =
  | { found: true; hit: ScoredAnswer }
  | {
      found: false;
      reason: NoAnswerReason;
      /** One sentence saying why (the problem's `detail`). */
      detail: string;
      query: string;
      /** Nearest questions below the floor, or for out-of-scope what the service offers instead. */
      suggestions: RelatedQuestion[];
      searchUrl: string;
      candidates?: { name: string; why: string; url: string }[];
      sectors?: string[];
    };

/**
 * The answer service of /api/answer (and of every surface that wants one answer): what the question asks about
 * (understand), then the best hit above the confidence floor, or the outcome that says why there is none.
 */
export function bestAnswer(snapshot: Snapshot, baseUrl: string, query: string): BestAnswer {
  const understood = understand(snapshot, baseUrl, query, 1);
  const best = understood.kind === 'answers' ? understood.hits[0] : undefined;
  if (best) return { found: true, hit: best };
  const searchUrl = `${siteUrls(baseUrl).api('/api/llms-search')}?q=${encodeURIComponent(query)}`;
  const base = { found: false as const, query, searchUrl };
  switch (understood.kind) {
    case 'not-tracked':
      return {
        ...base,
        reason: understood.ambiguous ? 'ambiguous' : 'not-tracked',
        detail: understoodNotice(understood, snapshot),
        candidates: understood.candidates,
        suggestions: [],
      };
    case 'no-sector':
      return {
        ...base,
        reason: 'no-sector',
        detail: understoodNotice(understood, snapshot),
        sectors: understood.sectors,
        suggestions: [],
      };
    case 'out-of-scope':
      return {
        ...base,
        reason: 'out-of-scope',
        detail: understoodNotice(understood, snapshot),
        suggestions: understood.offers,
      };
    case 'answers':
      return {
        ...base,
        reason: 'no-match',
        detail: `No question in the corpus matches this query with confidence of at least ${MIN_CONFIDENCE}.`,
        suggestions: answerCorpus(snapshot, baseUrl)
          .index.suggestions(query, 3)
          .map((s) => ({ question: s.entry.question, url: s.entry.url })),
      };
  }
}
