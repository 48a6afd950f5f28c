import { PaperContent } from '../../schemas/documents.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { readYamlContent, resolveSiteUrl } from '../documents/content.js';
import { DATA_LICENSE } from '../../domain/license.js';
import { researchFindings } from '../documents/research.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * Reference-manager citations of the methodology report (`paper`), the dataset (`dataset`) and every research
 * finding. Each source becomes one CSL-JSON item; citation-js turns it into BibTeX and RIS (escaped so both parse
 * back to the same item) and, through its CSL processor, into APA, MLA and Chicago. The Wikipedia citation template
 * is written here from the same item. citation-js itself is loaded with format.ts, on the first citation
 * asked for: it is about 80 ms of a start otherwise.
 */
export const CITATION_FORMATS = ['bibtex', 'ris', 'apa', 'mla', 'chicago', 'wikipedia'] as const;
export type CitationFormat = (typeof CITATION_FORMATS)[number];
export const FIXED_CITATION_SLUGS = ['paper', 'dataset'] as const;
export const PAPER_FILE = 'paper.yaml';
export const PUBLISHER = 'Signal Service';

export function isCitationFormat(value: string): value is CitationFormat {
  return (CITATION_FORMATS as readonly string[]).includes(value);
}

export function readPaper(dir: string): PaperContent {
  return readYamlContent(dir, PAPER_FILE, PaperContent);
}

type CslName = { literal: string } | { given: string; family: string };

/** The CSL-JSON subset this service produces. */
export interface CslItem {
  id: string;
  'citation-key': string;
  type: 'report' | 'dataset' | 'webpage';
  title: string;
  author: CslName[];
  issued: { 'date-parts': number[][] };
  publisher?: string;
  'container-title'?: string;
  version?: string;
  URL: string;
  DOI?: string;
  abstract?: string;
  note?: string;
}

/**
 * CSL-JSON treats <i>, <b>, <sc>, <sup>, <sub> and <span …> as rich-text markup, and an unbalanced one breaks the
 * BibTeX output. Our texts are plain, so such sequences are kept visible with look-alike angle quotes.
 */
export function plainCslText(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/<(\/?(?:i|b|sc|sup|sub|span)\b[^>]*)>/gi, '‹$1›')
    .trim();
}

function dateParts(date: Date): number[][] {
  return [[date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]];
}

/** BibTeX labels must be letters and digits only: "SignalService2026w47MedianCommitVelocityBySector". */
function citationKey(...parts: string[]): string {
  return parts
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
    .join('');
}

const ORGANISATION: CslName = { literal: PUBLISHER };

export function paperItem(paper: PaperContent, baseUrl: string): CslItem {
  return {
    id: 'paper',
    'citation-key': citationKey('SignalService', String(paper.year), 'methodology'),
    type: 'report',
    title: plainCslText(paper.title),
    author: paper.authors.map((a) =>
      'literal' in a
        ? { literal: plainCslText(a.literal) }
        : { given: plainCslText(a.given), family: plainCslText(a.family) },
    ),
    issued: { 'date-parts': [[paper.year]] },
    publisher: plainCslText(paper.publisher),
    URL: resolveSiteUrl(baseUrl, paper.url),
    ...(paper.doi ? { DOI: paper.doi } : {}),
  };
}

export function datasetItem(snapshot: Snapshot, baseUrl: string): CslItem {
  const period = snapshot.period;
  return {
    id: 'dataset',
    'citation-key': citationKey('SignalService', period.slug, 'dataset'),
    type: 'dataset',
    title: plainCslText(period.datasetName),
    author: [ORGANISATION],
    issued: { 'date-parts': dateParts(period.publishedAt) },
    publisher: PUBLISHER,
    version: period.name,
    URL: siteUrls(baseUrl).api('/api/v1/dataset.jsonl'),
    note: plainCslText(`${DATA_LICENSE.name} (${DATA_LICENSE.url}); attribution required.`),
  };
}

export function findingItems(snapshot: Snapshot, baseUrl: string): CslItem[] {
  return researchFindings(snapshot, baseUrl)
    .filter((f) => !(FIXED_CITATION_SLUGS as readonly string[]).includes(f.slug))
    .map((f) => ({
      id: f.slug,
      'citation-key': citationKey('SignalService', f.period, f.slug),
      type: 'webpage',
      title: plainCslText(`${f.title}, ${snapshot.period.name}`),
      author: [ORGANISATION],
      issued: { 'date-parts': dateParts(snapshot.period.publishedAt) },
      'container-title': `${PUBLISHER} research`,
      URL: f.url,
      abstract: plainCslText(f.claim),
    }));
}

/** Every citable source of the snapshot by slug: paper, dataset, then the research findings. */
export function citationItems(snapshot: Snapshot, baseUrl: string, paper: PaperContent): Map<string, CslItem> {
  const items = [paperItem(paper, baseUrl), datasetItem(snapshot, baseUrl), ...findingItems(snapshot, baseUrl)];
  return new Map(items.map((item) => [item.id, item]));
}

/** A value inside a Wikipedia citation template: characters that would end or restructure it become entities. */
export function wikiValue(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/\|/g, '&#124;')
    .replace(/\{/g, '&#123;')
    .replace(/\}/g, '&#125;')
    .replace(/\[/g, '&#91;')
    .replace(/\]/g, '&#93;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/''/g, '&#39;&#39;')
    .replace(/~~~/g, '&#126;&#126;&#126;');
}

/** A URL inside a template: percent-encode what wikitext would read as syntax. */
function wikiUrl(url: string): string {
  return url.replace(/[\s|[\]{}<>"']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function isoDate(parts: number[]): string {
  const [y, m, d] = parts;
  if (m === undefined) return String(y);
  return `${y}-${String(m).padStart(2, '0')}${d === undefined ? '' : `-${String(d).padStart(2, '0')}`}`;
}

export function formatWikipedia(item: CslItem): string {
  const params: [string, string][] = [];
  item.author.forEach((a, i) => {
    const n = item.author.length > 1 ? String(i + 1) : '';
    if ('literal' in a) params.push([`author${n}`, wikiValue(a.literal)]);
    else params.push([`last${n}`, wikiValue(a.family)], [`first${n}`, wikiValue(a.given)]);
  });
  const date = isoDate(item.issued['date-parts'][0]!);
  params.push(['title', wikiValue(item.title)]);
  if (item.type === 'report') {
    params.push(['publisher', wikiValue(item.publisher ?? PUBLISHER)], ['year', date]);
    if (item.DOI) params.push(['doi', wikiValue(item.DOI)]);
  } else if (item.type === 'dataset') {
    params.push(
      ['type', wikiValue(`Dataset, ${item.version ?? ''}`.replace(/, $/, ''))],
      ['publisher', wikiValue(item.publisher ?? PUBLISHER)],
      ['date', date],
    );
  } else {
    params.push(['website', wikiValue(item['container-title'] ?? PUBLISHER)], ['date', date]);
  }
  params.push(['url', wikiUrl(item.URL)]);
  const template = item.type === 'report' ? 'cite report' : 'cite web';
  return `{{${template} ${params.map(([k, v]) => `|${k}=${v}`).join(' ')}}}`;
}
