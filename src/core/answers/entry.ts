import type { SectorSlug } from '../../schemas/enums.js';
import type { AnswerSource, Fact, RelatedQuestion } from '../../schemas/answers.js';

/** What an answer is about; NLWeb picks its JSON-LD type from it. */
export type AnswerKind =
  | 'startup'
  | 'sector-top'
  | 'sector-fastest'
  | 'trending'
  | 'fastest'
  | 'signal-type'
  | 'stage'
  | 'comparison'
  | 'dataset'
  | 'research'
  | 'diligence'
  | 'faq';

/** Kinds whose answer is a ranked list of startups. */
export const LIST_KINDS: ReadonlySet<AnswerKind> = new Set([
  'sector-top',
  'sector-fastest',
  'trending',
  'fastest',
  'signal-type',
  'stage',
  'comparison',
]);

/** One question of the corpus with its answer, as the index keeps it. */
export interface AnswerEntry {
  /** Stable slug: the same question gets the same id every period. */
  id: string;
  question: string;
  answer: string;
  url: string;
  source: AnswerSource;
  facts: Fact[];
  related: RelatedQuestion[];
  kind: AnswerKind;
  /** Logins of the startups the answer is about, in the answer's order. */
  subjects: string[];
  sector?: SectorSlug | undefined;
  /** Canonical names of the diligence entities the answer is about. */
  entities?: string[] | undefined;
  /** Extra words the question answers to (organisation login, sector slug, synonyms). */
  keywords: string[];
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
