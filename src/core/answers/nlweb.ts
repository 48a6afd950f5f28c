import { DATA_LICENSE } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import { understand, understoodNotice } from './understand.js';
import { LIST_KINDS, type AnswerEntry } from './entry.js';

/**
 * NLWeb: a natural-language question answered as schema.org JSON-LD. The question goes through the answer index
 * (the same one /api/ask uses); the kind of the best answer picks the type:
 *  - about one startup → Organization (its published signal as PropertyValues);
 *  - a list of startups (trending, a sector, a signal type, a stage, a comparison) → ItemList of Organizations;
 *  - about the data (coverage, period, research findings) → Dataset;
 *  - a question about the service (FAQ) → Question with its acceptedAnswer;
 *  - nothing good enough (confidence below the floor) → an empty ItemList named "No result", with a SearchAction
 *    pointing at the site search. Not an error.
 */
export type JsonLd = { '@context': 'https://schema.org'; '@type': string } & Record<string, unknown>;

const CONTEXT = 'https://schema.org' as const;

function organization(s: SnapshotStartup, snapshot: Snapshot, baseUrl: string): Record<string, unknown> {
  const t = s.startup;
  const prop = (name: string, value: string | number) => ({ '@type': 'PropertyValue', name, value });
  return {
    '@type': 'Organization',
    name: t.name,
    description: t.description,
    url: siteUrls(baseUrl).startup(s.login),
    sameAs: [...new Set([t.githubUrl, t.websiteUrl])],
    location: { '@type': 'Place', name: t.geography },
    additionalProperty: [
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
    ],
  };
}

function startupsOf(entry: AnswerEntry, snapshot: Snapshot): SnapshotStartup[] {
  return entry.subjects
    .map((login) => snapshot.byLogin.get(login.toLowerCase()))
    .filter((s): s is SnapshotStartup => s !== undefined);
}

function dataset(entry: AnswerEntry, snapshot: Snapshot, baseUrl: string): JsonLd {
  const urls = siteUrls(baseUrl);
  return {
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
  };
}

export function noResult(query: string, baseUrl: string, why?: string): JsonLd {
  const search = siteUrls(baseUrl).api('/api/llms-search');
  return {
    '@context': CONTEXT,
    '@type': 'ItemList',
    name: 'No result',
    description:
      why ??
      `Nothing in the answer corpus matches "${query}" well enough to answer it. Try the site search, or ask about a startup, a sector, a signal type or the data.`,
    numberOfItems: 0,
    itemListElement: [],
    potentialAction: {
      '@type': 'SearchAction',
      target: `${search}?q={query}`,
      'query-input': 'required name=query',
    },
  };
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
      return {
        '@context': CONTEXT,
        '@type': 'Organization',
        ...organization(s, snapshot, baseUrl),
        subjectOf: { '@type': 'Question', name: entry.question, url: entry.url, text: entry.answer },
      };
    }
  }
  if (LIST_KINDS.has(entry.kind)) {
    const list = startupsOf(entry, snapshot);
    return {
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
    };
  }
  if (entry.kind === 'faq' || entry.kind === 'diligence') {
    return {
      '@context': CONTEXT,
      '@type': 'Question',
      name: entry.question,
      url: entry.url,
      acceptedAnswer: { '@type': 'Answer', text: entry.answer, url: entry.url },
      citation: entry.facts.map((f) => ({ '@type': 'CreativeWork', name: f.claim, url: f.sourceUrl })),
    };
  }
  return dataset(entry, snapshot, baseUrl);
}
