import type { MarketSummary } from '../../schemas/documents.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { CITATION_FORMATS } from '../citations/citations.js';
import { DATA_LICENSE } from '../../domain/license.js';
import type { ResearchFinding } from './research.js';
import { sectors } from '../../domain/sectors.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * /llms.txt: a plain-text (Markdown) site map for language models, following the llms.txt convention: a title, a
 * one-line summary, then sections of links. The API list is taken from the OpenAPI document the routes generate, so
 * every surface the server has is listed and none it lacks.
 */
export interface ApiSurface {
  method: string;
  path: string;
  summary: string;
}

export interface LlmsTxtInput {
  baseUrl: string;
  snapshot: Snapshot;
  surfaces: readonly ApiSurface[];
  tools: readonly { name: string; description: string }[];
  findings: readonly ResearchFinding[];
  markets: readonly MarketSummary[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The operations of an OpenAPI document, sorted by path then method. */
export function surfacesFromOpenApi(document: { paths?: Record<string, Record<string, unknown>> }): ApiSurface[] {
  const surfaces: ApiSurface[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = operations[method] as { summary?: string } | undefined;
      if (op) surfaces.push({ method: method.toUpperCase(), path, summary: op.summary ?? '' });
    }
  }
  return surfaces.sort((a, b) => (a.path === b.path ? (a.method < b.method ? -1 : 1) : a.path < b.path ? -1 : 1));
}

/** Link text and notes are single lines; brackets are escaped so they cannot break the Markdown link syntax. */
function line(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/([[\]])/g, '\\$1')
    .trim();
}

export function buildLlmsTxt(input: LlmsTxtInput): string {
  const { snapshot, baseUrl } = input;
  const urls = siteUrls(baseUrl);
  const out: string[] = [
    '# Signal Service',
    '',
    '> Startup engineering-acceleration signals derived from public GitHub activity (commit velocity, contributor growth, new repositories), published weekly for investors, developers and AI agents.',
    '',
    `Current period: ${snapshot.period.name} (${snapshot.period.slug}), ${snapshot.startups.length} startups in ${sectors.length} sectors, published ${snapshot.period.publishedAt.toISOString()}.`,
    `Free endpoints need no key. ${DATA_LICENSE.terms}`,
  ];
  if (snapshot.synthetic) {
    out.push(
      'The data currently served is the SYNTHETIC DEMO DATASET: fictional startups with generated activity, not real companies.',
    );
  }

  out.push('', '## API', '');
  for (const s of input.surfaces) {
    out.push(`- [${s.method} ${s.path}](${urls.api(s.path)})${s.summary ? `: ${line(s.summary)}` : ''}`);
  }

  out.push('', '## Agents', '');
  out.push(`- [Agent catalog](${urls.api('/api/agents.json')}): the tools, their argument schemas and REST analogs`);
  for (const t of input.tools) out.push(`- ${t.name}: ${line(t.description)}`);

  out.push('', '## Sectors', '');
  for (const info of sectors) {
    const count = snapshot.bySector.get(info.slug)?.length ?? 0;
    out.push(
      `- [${line(info.name)}](${urls.sector(info.slug)}): ${line(info.description)} (${info.slug}, ${count} startups)`,
    );
  }

  if (input.markets.length > 0) {
    out.push('', '## Markets', '');
    for (const m of input.markets) out.push(`- [${line(m.question)}](${m.url})`);
  }

  if (input.findings.length > 0) {
    out.push('', '## Research findings', '');
    for (const f of input.findings) out.push(`- [${line(f.title)}](${f.url}): ${line(f.claim)}`);
  }

  out.push('', '## How to cite', '', line(snapshot.meta.citation), '');
  out.push(
    `Citation formats: ${CITATION_FORMATS.join(', ')}. Slugs: paper (the methodology report), dataset, and each research finding slug.`,
  );
  for (const format of CITATION_FORMATS) {
    out.push(`- [Dataset, ${format}](${urls.api(`/api/cite/${format}/dataset`)})`);
  }
  out.push(`- [Methodology report, BibTeX](${urls.api('/api/cite/bibtex/paper')})`);

  out.push('', '## Optional', '');
  out.push(`- [Methodology](${urls.methodology()}): how the six pipeline steps compute every number`);
  out.push(
    `- [Backtest](${urls.api('/backtest')}): whether the weekly ranking comes before funding rounds and acquisitions (${urls.api('/api/v1/backtest.json')})`,
  );
  out.push(`- [RSS feed](${urls.api('/feed.xml')}): one item per published week`);
  out.push(`- [Full dataset](${urls.api('/api/dataset.jsonl')}): every startup in every stored period, JSON lines`);
  out.push('');
  return out.join('\n');
}
