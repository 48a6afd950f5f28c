import { compactName, NameMatcher, type MatchResolution, type Resolution } from '../../domain/matcher.js';
import { DATA_LICENSE } from '../../domain/license.js';
import { derivePerBaseInSteps } from '../answers/derive.js';
import { inChunks, sortInSteps, type Steps } from '../../snapshot/steps.js';
import { siteUrls } from '../../domain/urls.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import type { AcquisitionFact, BackingFact, Dossier } from '../../schemas/answers.js';
import { loadDiligenceCorpus, SOURCE_THRESHOLD, type DiligenceCorpus, type DiligenceEntity } from './corpus.js';

/**
 * Diligence dossiers: for a company or fund name, its documented acquirers, acquisitions, disclosed backers and (for
 * a tracked startup) its published signal. Names are resolved by the one matching rule (domain/matcher.ts) over the
 * diligence entities and the tracked startups together, exactly as /api/signal resolves startups. A dossier is never
 * about another entity than the one asked: an ambiguous or unknown name is a 404 with "did you mean" candidates.
 */
export type Subject = { kind: 'entity'; entity: DiligenceEntity } | { kind: 'startup'; startup: SnapshotStartup };

/** A "did you mean" entry of a 404 dossier (beside `dossier`, outside the contract shape). */
export interface DossierCandidate {
  name: string;
  kind: 'company-or-fund' | 'tracked-startup' | 'demo-startup';
  why: string;
  url: string;
}

export interface CitationEntry {
  '@type': string;
  name: string;
  url: string;
  [key: string]: unknown;
}

export interface DossierResult {
  /**
   * True for a dossier of the entity asked; false outside the corpus or for an ambiguous name (then the body is the
   * not-found dossier with candidates: an expected outcome, which REST answers with 404 and the tools as a result).
   */
  found: boolean;
  body: {
    '@context': 'https://schema.org';
    '@type': 'Dataset';
    name: string;
    dossier: Dossier;
    citation: CitationEntry[];
    candidates?: DossierCandidate[];
  };
  /** How the name was resolved (the X-Name-Match header). */
  how: 'exact' | 'slug' | 'alias' | 'typo' | 'ambiguous' | 'none';
}

export interface DiligenceIndex {
  corpus: DiligenceCorpus;
  matcher: NameMatcher<Subject>;
  /** Tracked startups by compact name, to attach a published signal to a diligence entity of the same name. */
  startupsByName: Map<string, SnapshotStartup>;
  usage: Record<string, unknown>;
}

/** Startups whose names are folded per step of the build. */
const NAME_CHUNK = 5_000;

function* buildIndex(snapshot: Snapshot, baseUrl: string): Steps<DiligenceIndex> {
  const corpus = loadDiligenceCorpus();
  // Each startup's compact name once, in steps: folding 100,000 names was a third of a second in one step.
  const compactNames: string[] = [];
  const startupsByName = new Map<string, SnapshotStartup>();
  yield* inChunks(snapshot.startups, NAME_CHUNK, (s) => {
    const key = compactName(s.startup.name);
    compactNames.push(key);
    startupsByName.set(key, s);
  });
  // A tracked startup that is also a corpus entity is one subject (the entity, with the startup's signal attached).
  const entityNames = new Set(corpus.entities.map((e) => compactName(e.name)));
  const subjects: Subject[] = [
    ...corpus.entities.map((entity): Subject => ({ kind: 'entity', entity })),
    ...snapshot.startups
      .filter((_, i) => !entityNames.has(compactNames[i]!))
      .map((startup): Subject => ({ kind: 'startup', startup })),
  ];
  yield;
  const matcher = yield* NameMatcher.build(subjects, (s) =>
    s.kind === 'entity'
      ? {
          name: s.entity.name,
          slug: startupsByName.get(compactName(s.entity.name))?.login,
          aliases: s.entity.aliases,
          formerNames: s.entity.formerNames,
          related: s.entity.related,
        }
      : { name: s.startup.startup.name, slug: s.startup.login },
  );
  const startupNames = yield* sortInSteps(
    snapshot.startups.map((s) => s.startup.name),
    nameOrder.compare,
  );
  return { corpus, matcher, startupsByName, usage: usageEnvelope(snapshot, baseUrl, corpus, startupNames) };
}

/** The order of the usage envelope's startup names. */
const nameOrder = new Intl.Collator('en');

/**
 * The diligence entities and tracked startups of a snapshot, with their matcher: built once per period, in steps by
 * the warm-up (`diligenceIndex.warm`), at once by a request that comes first.
 */
export const diligenceIndex = derivePerBaseInSteps(buildIndex);

export function subjectName(subject: Subject): string {
  return subject.kind === 'entity' ? subject.entity.name : subject.startup.startup.name;
}

/** A note saying how a name that is not the canonical one was read, or undefined for an exact name. */
function matchNote(query: string, name: string, match: MatchResolution<Subject>): string | undefined {
  if (match.how === 'exact') return undefined;
  if (match.how === 'slug') return `"${query}" is the GitHub organisation of ${name}.`;
  if (match.how === 'alias') {
    return match.formerName
      ? `"${query}" is a former name of ${name} (${match.matched}).`
      : `"${query}" is another name of ${name} (${match.matched}).`;
  }
  const parts = [match.edits > 0 ? `${match.edits} letter edit${match.edits === 1 ? '' : 's'}` : ''];
  if (match.omitted.length)
    parts.push(`without the generic word${match.omitted.length === 1 ? '' : 's'} "${match.omitted.join(' ')}"`);
  return `"${query}" was read as ${match.matched} (${parts.filter(Boolean).join(', ')}): a confident typo or short form under the matching rule.`;
}

function datasetCitation(snapshot: Snapshot, baseUrl: string): CitationEntry {
  return {
    '@type': 'Dataset',
    name: 'Signal Service diligence corpus',
    url: siteUrls(baseUrl).api('/api/diligence.json'),
    license: DATA_LICENSE.url,
    citation: snapshot.meta.citation,
  };
}

function sourceCitations(facts: readonly (AcquisitionFact | BackingFact)[]): CitationEntry[] {
  const seen = new Set<string>();
  const entries: CitationEntry[] = [];
  for (const fact of facts) {
    const title =
      'acquirer' in fact
        ? `${fact.acquirer} to acquire ${fact.target} (announced ${fact.announced})`
        : `${fact.company} ${fact.round}: ${fact.investor} (announced ${fact.announced})`;
    for (const source of fact.sources) {
      if (seen.has(source.url)) continue;
      seen.add(source.url);
      entries.push({
        '@type': 'CreativeWork',
        name: title,
        url: source.url,
        publisher: source.publisher,
        genre: source.kind,
      });
    }
  }
  return entries;
}

function entityDossier(
  index: DiligenceIndex,
  snapshot: Snapshot,
  baseUrl: string,
  entity: DiligenceEntity,
  query: string,
  match: MatchResolution<Subject>,
): DossierResult {
  const tracked = index.startupsByName.get(compactName(entity.name));
  const notes: string[] = [];
  const how = matchNote(query, entity.name, match);
  if (how) notes.push(how);
  for (const r of entity.related) notes.push(`Not the same as ${r.name}: ${r.relation}.`);
  if (entity.acquiredBy.length === 0) notes.push(`No acquisition of ${entity.name} is documented in this corpus.`);
  if (entity.acquisitionsMade.length === 0) {
    notes.push(`No acquisition made by ${entity.name} is documented in this corpus.`);
  }
  if (entity.backedBy.length === 0) {
    notes.push(`No publicly disclosed backer of ${entity.name} is documented in this corpus.`);
  }
  if (entity.investments.length > 0) {
    notes.push(
      `${entity.name} led or co-led ${entity.investments.length} documented round(s): ${entity.investments
        .map((r) => `${r.company} ${r.round} (${r.announced})`)
        .join('; ')}.`,
    );
  }
  notes.push(
    tracked
      ? `${entity.name} is tracked: the signal is its published signal for ${snapshot.period.name}.`
      : `${entity.name} is not among the startups tracked for ${snapshot.period.name}, so no engineering signal is published for it.`,
  );
  notes.push('Absence of a fact here means it is not documented in this corpus, not that it did not happen.');
  const facts = [...entity.acquiredBy, ...entity.acquisitionsMade, ...entity.backedBy, ...entity.investments];
  return {
    found: true,
    how: match.how,
    body: {
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      name: `Diligence dossier: ${entity.name}`,
      dossier: {
        entity: entity.name,
        found: true,
        acquiredBy: entity.acquiredBy,
        acquisitionsMade: entity.acquisitionsMade,
        backedBy: entity.backedBy,
        signal: tracked ? tracked.startup : null,
        notes,
      },
      citation: [
        datasetCitation(snapshot, baseUrl),
        ...sourceCitations(facts),
        ...(tracked ? [startupCitation(baseUrl, tracked, snapshot)] : []),
      ],
    },
  };
}

function startupCitation(baseUrl: string, s: SnapshotStartup, snapshot: Snapshot): CitationEntry {
  return {
    '@type': 'WebPage',
    name: `${s.startup.name}: engineering signal, ${snapshot.period.name}`,
    url: siteUrls(baseUrl).startup(s.login),
  };
}

function startupDossier(
  snapshot: Snapshot,
  baseUrl: string,
  s: SnapshotStartup,
  query: string,
  match: MatchResolution<Subject>,
): DossierResult {
  const notes: string[] = [];
  const how = matchNote(query, s.startup.name, match);
  if (how) notes.push(how);
  notes.push(
    snapshot.synthetic
      ? `${s.startup.name} is a fictional startup from the synthetic demo dataset: it has no acquisition, acquirer or backer facts, and its signal is generated data.`
      : `No acquisition, acquirer or publicly disclosed backer of ${s.startup.name} is documented in this corpus.`,
  );
  notes.push(`The signal is the published signal for ${snapshot.period.name} (${snapshot.period.slug}).`);
  return {
    found: true,
    how: match.how,
    body: {
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      name: `Diligence dossier: ${s.startup.name}`,
      dossier: {
        entity: s.startup.name,
        found: true,
        acquiredBy: [],
        acquisitionsMade: [],
        backedBy: [],
        signal: s.startup,
        notes,
      },
      citation: [datasetCitation(snapshot, baseUrl), startupCitation(baseUrl, s, snapshot)],
    },
  };
}

function candidatesOf(snapshot: Snapshot, baseUrl: string, resolution: Resolution<Subject>): DossierCandidate[] {
  if (resolution.status === 'match') return [];
  const urls = siteUrls(baseUrl);
  return resolution.candidates.map((c) => {
    const name = subjectName(c.item);
    return {
      name,
      kind: c.item.kind === 'entity' ? 'company-or-fund' : snapshot.synthetic ? 'demo-startup' : 'tracked-startup',
      why: c.why,
      url: `${urls.api('/api/diligence.json')}?company=${encodeURIComponent(
        c.item.kind === 'startup' ? c.item.startup.login : name,
      )}`,
    };
  });
}

function missDossier(
  index: DiligenceIndex,
  snapshot: Snapshot,
  baseUrl: string,
  query: string,
  resolution: Resolution<Subject>,
): DossierResult {
  const candidates = candidatesOf(snapshot, baseUrl, resolution);
  const first =
    resolution.status === 'ambiguous'
      ? `"${query}" names more than one entity equally well (${candidates.map((c) => c.name).join(', ')}): ask again with the full name.`
      : `No tracked startup and no company or fund of the diligence corpus is named "${query}".`;
  const notes = [first];
  if (resolution.status === 'none' && candidates.length) {
    notes.push(
      `Close names, not substituted: ${candidates.map((c) => `${c.name} (${c.why})`).join('; ')}. Ask for one of them by name to get its dossier.`,
    );
  }
  notes.push(
    `The corpus covers ${index.corpus.entities.length} companies and funds named by ${index.corpus.acquisitions.length} documented acquisitions and ${index.corpus.backers.length} disclosed backings, and ${snapshot.startups.length} ${snapshot.synthetic ? 'fictional demo startups' : 'tracked startups'}; GET ${siteUrls(baseUrl).api('/api/diligence.json')} lists every answerable name.`,
    'Absence here is not evidence that no acquisition or funding exists: only facts with a press release, regulatory filing or both-sides disclosure are recorded.',
  );
  return {
    found: false,
    how: resolution.status === 'match' ? 'none' : resolution.status,
    body: {
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      name: 'Diligence dossier: no match',
      dossier: {
        entity: query,
        found: false,
        acquiredBy: [],
        acquisitionsMade: [],
        backedBy: [],
        signal: null,
        notes,
      },
      citation: [datasetCitation(snapshot, baseUrl)],
      candidates,
    },
  };
}

/** The dossier for `query` (already trimmed, 1–100 characters). */
export function diligenceDossier(snapshot: Snapshot, baseUrl: string, query: string): DossierResult {
  const index = diligenceIndex(snapshot, baseUrl);
  // Strict: a diligence dossier is real-world facts, so only an exact name, slug or alias resolves.
  const resolution = index.matcher.resolve(query, { typos: false });
  if (resolution.status !== 'match') return missDossier(index, snapshot, baseUrl, query, resolution);
  return resolution.item.kind === 'entity'
    ? entityDossier(index, snapshot, baseUrl, resolution.item.entity, query, resolution)
    : startupDossier(snapshot, baseUrl, resolution.item.startup, query, resolution);
}

function usageEnvelope(
  snapshot: Snapshot,
  baseUrl: string,
  corpus: DiligenceCorpus,
  startupNames: readonly string[],
): Record<string, unknown> {
  const urls = siteUrls(baseUrl);
  const answerable = [...corpus.entities.map((e) => e.name), ...startupNames];
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: 'Signal Service diligence dossiers',
    description:
      'Public-source diligence per company or fund: documented acquirers, acquisitions made, publicly disclosed backers, and the published engineering signal of tracked startups.',
    usage: {
      get: `${urls.api('/api/diligence.json')}?company=GitHub`,
      post: { url: urls.api('/api/diligence.json'), body: { company: 'GitHub' } },
      parameters: {
        company:
          'Company or fund name, at most 100 characters: its name, an alias, a former name or a confident typo (case, accents, punctuation and legal suffixes ignored). Never answered with another entity.',
        entity: 'Alias of company.',
        q: 'Alias of company.',
      },
      outcomes: {
        '200': 'A dossier with dossier.found = true.',
        '404':
          'The name is outside the tracked corpus or ambiguous: dossier.found = false with notes and "did you mean" candidates (an expected outcome).',
        '400': 'The name is longer than 100 characters or the body is not a JSON object.',
      },
    },
    metadata: {
      coverage: {
        // Real companies only: fictional demo startups are counted apart, never beside real acquirers.
        trackedCompanies: snapshot.synthetic ? 0 : snapshot.startups.length,
        demoStartups: snapshot.synthetic ? snapshot.startups.length : 0,
        companiesAndFunds: corpus.entities.length,
        acquirers: corpus.entities.filter((e) => e.acquisitionsMade.length > 0).length,
        documentedAcquisitions: corpus.acquisitions.length,
        fundsWithPortfolios: corpus.entities.filter((e) => e.investments.length > 0).length,
        answerableEntities: answerable.length,
      },
      sourceThreshold: SOURCE_THRESHOLD,
      relatedEndpoints: [
        {
          method: 'GET',
          url: urls.api('/api/signal'),
          description: 'The published signal of one tracked startup.',
        },
        {
          method: 'GET',
          url: urls.api('/api/signals.json'),
          description: 'The current period: trending startups and sector rankings.',
        },
        { method: 'GET', url: urls.api('/api/ask'), description: 'Questions answered from the answer corpus.' },
        { method: 'GET', url: urls.api('/api/llms-search'), description: 'Site-wide search.' },
      ],
      license: { name: DATA_LICENSE.name, url: DATA_LICENSE.url, terms: DATA_LICENSE.terms },
      citation: snapshot.meta.citation,
    },
    answerableEntities: answerable,
  };
}

/** The usage envelope answered when no company is given. */
export function diligenceUsage(snapshot: Snapshot, baseUrl: string): Record<string, unknown> {
  return diligenceIndex(snapshot, baseUrl).usage;
}
