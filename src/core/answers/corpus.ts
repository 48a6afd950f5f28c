import { DATA_LICENSE } from '../../domain/license.js';
import { rendered, type Rendered, type Snapshot } from '../../snapshot/snapshot.js';
import type { AnswersCorpus, FaqPage } from '../../schemas/answers.js';
import { agentQuerySteps } from './agent-queries.js';
import { AnswerIndex } from './answer-index.js';
import type { AnswerEntry } from './entry.js';
import { loadFaq, type ResolvedFaq } from './faq.js';
import { siteUrls } from '../../domain/urls.js';
import { derivePerBaseInSteps } from './derive.js';
import type { Steps } from '../../snapshot/steps.js';
import { diligenceEntries } from './diligence-answers.js';

export function faqEntry(faq: ResolvedFaq): AnswerEntry {
  return {
    id: `faq-${faq.slug}`,
    question: faq.question,
    answer: faq.answer,
    url: faq.url,
    source: 'faq',
    facts: faq.facts,
    related: faq.related,
    kind: 'faq',
    subjects: [],
    keywords: [...faq.keywords, faq.topic],
  };
}

/** Each diligence answer links to the other answers about the same companies, then to what the corpus covers. */
function relateDiligence(entries: AnswerEntry[], baseUrl: string): AnswerEntry[] {
  const byEntity = new Map<string, AnswerEntry[]>();
  for (const e of entries) for (const name of e.entities ?? []) byEntity.set(name, [...(byEntity.get(name) ?? []), e]);
  const cover = siteUrls(baseUrl).faq('what-does-diligence-cover');
  for (const e of entries) {
    const others = (e.entities ?? []).flatMap((name) => byEntity.get(name) ?? []).filter((o) => o !== e);
    e.related = others.slice(0, 3).map((o) => ({ question: o.question, url: o.url }));
    e.related.push({ question: 'What does the diligence endpoint cover?', url: cover });
  }
  return entries;
}

export interface AnswerCorpus {
  entries: AnswerEntry[];
  /** Each entry by its id (ids are unique across the corpus). */
  byId: ReadonlyMap<string, AnswerEntry>;
  index: AnswerIndex;
  /** GET /api/answers.json and /api/v1/answers.json. */
  json: Rendered;
}

function* buildCorpus(snapshot: Snapshot, baseUrl: string): Steps<AnswerCorpus> {
  const urls = siteUrls(baseUrl);
  // Diligence answers are real, sourced facts: added as they are, without the synthetic-data note of demo answers.
  const agent = [
    ...(yield* agentQuerySteps(snapshot, baseUrl)),
    ...relateDiligence(
      diligenceEntries(baseUrl).map((e): AnswerEntry => ({
        ...e,
        url: urls.answer(e.id),
        source: 'agent-query',
        related: [],
      })),
      baseUrl,
    ),
  ];
  const faq = loadFaq(baseUrl).map(faqEntry);
  const entries = [...agent, ...faq];
  yield;
  const index = yield* AnswerIndex.build(entries);
  // The JSON document (GET /api/answers.json) is rendered when first asked for, not as part of the build.
  let json: Rendered | undefined;
  const render = (): Rendered => {
    json ??= renderCorpus(snapshot, entries, agent.length, faq.length);
    return json;
  };
  return {
    entries,
    byId: new Map(entries.map((e) => [e.id, e])),
    index,
    get json() {
      return render();
    },
  };
}

function renderCorpus(snapshot: Snapshot, entries: AnswerEntry[], agentCount: number, faqCount: number): Rendered {
  const body: AnswersCorpus = {
    meta: {
      name: snapshot.synthetic
        ? 'Signal Service question-and-answer corpus (agent queries over SYNTHETIC DEMO DATA, plus FAQ)'
        : 'Signal Service question-and-answer corpus (agent queries and FAQ)',
      period: { slug: snapshot.period.slug, name: snapshot.period.name },
      lastUpdated: snapshot.meta.lastUpdated,
      total: entries.length,
      counts: { 'agent-query': agentCount, faq: faqCount },
      synthetic: snapshot.synthetic,
      license: DATA_LICENSE.terms,
      citation: snapshot.meta.citation,
    },
    answers: entries.map((e) => ({
      id: e.id,
      question: e.question,
      answer: e.answer,
      url: e.url,
      source: e.source,
      facts: e.facts,
      related: e.related,
    })),
  };
  return rendered(JSON.stringify(body), 'application/json; charset=utf-8');
}

/** The corpus of the snapshot's period: agent queries generated from its data plus the FAQ. Built once per period. */
export const answerCorpus = derivePerBaseInSteps(buildCorpus);

const faqPages = new Map<string, Rendered>();

/** GET /api/v1/faq.json: the standalone FAQ as a schema.org FAQPage (does not depend on the period). */
export function faqPage(baseUrl: string): Rendered {
  let page = faqPages.get(baseUrl);
  if (!page) {
    const urls = siteUrls(baseUrl);
    const body: FaqPage = {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      name: 'Signal Service: frequently asked questions',
      url: urls.api('/faq'),
      license: DATA_LICENSE.url,
      inLanguage: 'en',
      mainEntity: loadFaq(baseUrl).map((f) => ({
        '@type': 'Question',
        '@id': f.url,
        name: f.question,
        about: f.topic,
        acceptedAnswer: { '@type': 'Answer', text: f.answer, url: f.url },
      })),
    };
    page = rendered(JSON.stringify(body), 'application/json; charset=utf-8');
    faqPages.set(baseUrl, page);
  }
  return page;
}
