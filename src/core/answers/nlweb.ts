import type { Dataset, ItemList, Organization, PropertyValue, Question, SearchAction, WithContext } from 'schema-dts';
import { DATA_LICENSE } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import { understand, understoodNotice } from './understand.js';
import { LIST_KINDS, type AnswerEntry } from './entry.js';

/**
 * NLWeb: a natural-language question answered as schema.org JSON-LD. The question goes through the answer index
 * (the same one /api/ask uses); the kind of the best answer picks the type:
 *  - about one startup → Organization, its published signal a Dataset about it (`subjectOf`) whose
 *    `variableMeasured` are PropertyValues (schema.org allows `additionalProperty` on places, products and offers,
 *    not on an Organization);
 *  - a list of startups (trending, a sector, a signal type, a stage, a comparison) → ItemList of Organizations;
 *  - about the data (coverage, period, research findings) → Dataset;
 *  - a question about the service (FAQ) → Question with its acceptedAnswer;
 *  - nothing good enough (confidence below the floor) → an empty ItemList named "No result", with a SearchAction
 *    pointing at the site search. Not an error.
 */
export type JsonLd = { '@context': 'https://schema.org'; '@type': string } & Record<string, unknown>;

const CONTEXT = 'https://schema.org' as const;

/** Objects are built against the schema.org types of `schema-dts` (checked by the compiler), then served as JSON. */
type Node<T> = Exclude<T, string>;
const asJsonLd = (value: WithContext<Node<ItemList | Organization | Dataset | Question>>) => value as unknown as JsonLd;

/** The published figures of a startup for a period, as the variables a Dataset measures. */
export function signalFigures(s: SnapshotStartup, snapshot: Snapshot): PropertyValue[] {
  const t = s.startup;
  const prop = (name: string, value: string | number): PropertyValue => ({ '@type': 'PropertyValue', name, value });
  return [
    prop('period', snapshot.period.slug),
    prop('stage', t.stage),
    prop('signalType', t.signalType),
    prop('commitVelocity14d', t.commitVelocity14d),
    prop('commitVelocityChange', t.commitVelocityChange),
    prop('contributors', t.contributors),
    prop('contributorGrowth', t.contributorGrowth),
    prop('newRepos', t.newRepos),
    prop('rankInSector', s.rankInSector),
    ...(s.rankOverall !== null ? [prop('rankOverall', s.rankOverall)] : []),
  ];
}

/** A tracked startup: the Organization, and its signal for the period as a Dataset about it. */
export function organization(
  s: SnapshotStartup,
  snapshot: Snapshot,
  baseUrl: string,
  about: Node<Question>[] = [],
): Node<Organization> {
  const t = s.startup;
  const url = siteUrls(baseUrl).startup(s.login);
  const signal: Node<Dataset> = {
    '@type': 'Dataset',
    name: `${t.name}: engineering signal, ${snapshot.period.name}`,
    url,
    temporalCoverage: snapshot.period.slug,
    license: DATA_LICENSE.url,
    isAccessibleForFree: true,
    variableMeasured: signalFigures(s, snapshot),
  };
  return {
    '@type': 'Organization',
    name: t.name,
    description: t.description,
    url,
    sameAs: [...new Set([t.githubUrl, t.websiteUrl])],
    location: { '@type': 'Place', name: t.geography },
    subjectOf: [signal, ...about],
  };
}

function startupsOf(entry: AnswerEntry, snapshot: Snapshot): SnapshotStartup[] {
  return entry.subjects
    .map((login) => snapshot.byLogin.get(login.toLowerCase()))
    .filter((s): s is SnapshotStartup => s !== undefined);
}

function dataset(entry: AnswerEntry, snapshot: Snapshot, baseUrl: string): JsonLd {
  const urls = siteUrls(baseUrl);
  return asJsonLd({
    '@context': CONTEXT,
    '@type': 'Dataset',
    name: snapshot.meta.name,
    description: entry.answer,
    url: entry.url,
    license: DATA_LICENSE.url,
    isAccessibleForFree: true,
    temporalCoverage: `${snapshot.periods[0]?.slug ?? snapshot.period.slug}/${snapshot.period.slug}`,
    dateModified: snapshot.meta.lastUpdated,
    citation: snapshot.meta.citation,
    distribution: [
      { '@type': 'DataDownload', encodingFormat: 'application/json', contentUrl: urls.api('/api/signals.json') },
      { '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: urls.api('/api/signals.csv') },
      { '@type': 'DataDownload', encodingFormat: 'application/x-ndjson', contentUrl: urls.api('/api/dataset.jsonl') },
    ],
    subjectOf: { '@type': 'Question', name: entry.question, url: entry.url },
  });
}

export function noResult(query: string, baseUrl: string, why?: string): JsonLd {
  const search = siteUrls(baseUrl).api('/api/llms-search');
  const action: Node<SearchAction> = {
    '@type': 'SearchAction',
    target: { '@type': 'EntryPoint', urlTemplate: `${search}?q={query}` },
  };
  return asJsonLd({
    '@context': CONTEXT,
    '@type': 'ItemList',
    name: 'No result',
    description:
      why ??
      `Nothing in the answer corpus matches "${query}" well enough to answer it. Try the site search, or ask about a startup, a sector, a signal type or the data.`,
    numberOfItems: 0,
    itemListElement: [],
    potentialAction: action,
  });
}

export function nlwebAnswer(snapshot: Snapshot, baseUrl: string, query: string): JsonLd {
  const understood = understand(snapshot, baseUrl, query, 1);
  if (understood.kind !== 'answers') return noResult(query, baseUrl, understoodNotice(understood, snapshot));
  const best = understood.hits[0];
  if (!best) return noResult(query, baseUrl);
  const { entry } = best;
  if (entry.kind === 'startup') {
    const s = startupsOf(entry, snapshot)[0];
    if (s) {
      const question: Node<Question> = {
        '@type': 'Question',
        name: entry.question,
        url: entry.url,
        text: entry.answer,
      };
      return asJsonLd({ '@context': CONTEXT, ...organization(s, snapshot, baseUrl, [question]) } as WithContext<
        Node<Organization>
      >);
    }
  }
  if (LIST_KINDS.has(entry.kind)) {
    const list = startupsOf(entry, snapshot);
    return asJsonLd({
      '@context': CONTEXT,
      '@type': 'ItemList',
      name: entry.question,
      description: entry.answer,
      url: entry.url,
      numberOfItems: list.length,
      itemListOrder: 'https://schema.org/ItemListOrderDescending',
      itemListElement: list.map((s, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        item: organization(s, snapshot, baseUrl),
      })),
    });
  }
  if (entry.kind === 'faq' || entry.kind === 'diligence') {
    return asJsonLd({
      '@context': CONTEXT,
      '@type': 'Question',
      name: entry.question,
      url: entry.url,
      acceptedAnswer: { '@type': 'Answer', text: entry.answer, url: entry.url },
      citation: entry.facts.map((f) => ({ '@type': 'CreativeWork', name: f.claim, url: f.sourceUrl })),
    });
  }
  return dataset(entry, snapshot, baseUrl);
}
