import type { AcquisitionFact, BackingFact, Fact } from '../../schemas/answers.js';
import { loadDiligenceCorpus, type DiligenceEntity } from '../diligence/corpus.js';
import { siteUrls } from '../../domain/urls.js';
import { slugify, type AnswerEntry } from './entry.js';

/**
 * Answers from the diligence corpus: who acquired a company, what a company acquired, who backed it, which rounds a
 * fund led. One entry per fact kind per entity, each fact linked to its press release or filing and to the dossier.
 * "Who acquired X?" exists for every entity, and says so when no acquisition of X is documented.
 */
type Omitted = 'url' | 'source' | 'related';

function deal(d: AcquisitionFact): string {
  const parts = [`announced ${d.announced}`];
  if (d.completed) parts.push(`completed ${d.completed}`);
  parts.push(d.value ? `value ${d.value}` : 'value not disclosed');
  return `${d.acquirer} → ${d.target} (${parts.join(', ')})`;
}

/** A deal with its note (announcement versus closing, undisclosed or disputed values), as an answer sentence. */
function dealSentence(d: AcquisitionFact): string {
  return `${d.acquirer} acquired ${d.target}: ${deal(d)}.${d.note ? ` ${d.note}` : ''}`;
}

function round(b: BackingFact): string {
  return `${b.investor} in ${b.company}'s ${b.round} (announced ${b.announced})`;
}

function sourceFacts(facts: readonly (AcquisitionFact | BackingFact)[], describe: (f: never) => string): Fact[] {
  return facts.flatMap((f) =>
    f.sources.map((s) => ({ claim: `${describe(f as never)}; source: ${s.publisher} (${s.kind}).`, sourceUrl: s.url })),
  );
}

function entityEntries(entity: DiligenceEntity, dossierUrl: string): Omit<AnswerEntry, Omitted>[] {
  const slug = slugify(entity.name);
  const names = [entity.name, ...entity.aliases, ...entity.formerNames];
  const dossierFact: Fact = { claim: `Diligence dossier of ${entity.name}.`, sourceUrl: dossierUrl };
  const common = { entities: [entity.name], subjects: [], kind: 'diligence' as const };
  const entries: Omit<AnswerEntry, Omitted>[] = [];
  const acquired = entity.acquiredBy;
  entries.push({
    ...common,
    id: `acquired-${slug}`,
    question: `Who acquired ${entity.name}?`,
    answer: acquired.length
      ? acquired.map(dealSentence).join(' ')
      : `No acquisition of ${entity.name} is documented in the diligence corpus${entity.acquisitionsMade.length ? `; ${entity.name} itself made ${entity.acquisitionsMade.length} documented acquisition(s)` : ''}. Absence here is not evidence that none happened.`,
    facts: [...sourceFacts(acquired, deal), dossierFact],
    keywords: [
      ...names,
      'acquired',
      'acquirer',
      'acquisition',
      'bought',
      'buyer',
      'owns',
      'owner',
      'parent',
      'purchased',
      'pay',
      'paid',
      'price',
    ],
  });
  if (entity.acquisitionsMade.length) {
    entries.push({
      ...common,
      id: `acquisitions-${slug}`,
      question: `Which companies has ${entity.name} acquired?`,
      answer: `${entity.acquisitionsMade.length} documented acquisition(s) by ${entity.name}. ${entity.acquisitionsMade.map(dealSentence).join(' ')}`,
      facts: [...sourceFacts(entity.acquisitionsMade, deal), dossierFact],
      keywords: [
        ...names,
        'acquisitions',
        'acquisition',
        'acquired',
        'bought',
        'buy',
        'deals',
        'purchases',
        'companies',
      ],
    });
  }
  if (entity.backedBy.length) {
    entries.push({
      ...common,
      id: `backers-${slug}`,
      question: `Who backs ${entity.name}?`,
      answer: `Publicly disclosed lead or co-lead investors of ${entity.name}: ${entity.backedBy.map(round).join('; ')}.`,
      facts: [...sourceFacts(entity.backedBy, round), dossierFact],
      keywords: [...names, 'backers', 'backed', 'investors', 'invested', 'funding', 'funded', 'raised', 'round', 'vc'],
    });
  }
  if (entity.investments.length) {
    entries.push({
      ...common,
      id: `investments-${slug}`,
      question: `Which rounds has ${entity.name} led?`,
      answer: `Documented rounds ${entity.name} led or co-led: ${entity.investments.map(round).join('; ')}.`,
      facts: [...sourceFacts(entity.investments, round), dossierFact],
      keywords: [...names, 'portfolio', 'investments', 'invested', 'led', 'rounds', 'backed'],
    });
  }
  return entries;
}

/** Every diligence answer: acquirers, acquisitions, backers and led rounds of each corpus entity. */
export function diligenceEntries(baseUrl: string): Omit<AnswerEntry, Omitted>[] {
  const urls = siteUrls(baseUrl);
  return loadDiligenceCorpus().entities.flatMap((entity) =>
    entityEntries(entity, `${urls.api('/api/diligence.json')}?company=${encodeURIComponent(entity.name)}`),
  );
}
