import type { Snapshot } from '../../snapshot/snapshot.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The short description of the current period that agents ask for first: the meta block of /api/signals.json, every
 * sector with its size, and the URLs of every format the data is published in. The full data stays behind those URLs
 * (and the MCP resources signal://summary and signal://trending).
 */
export function signalsSummary(snapshot: Snapshot, baseUrl: string) {
  const urls = siteUrls(baseUrl);
  return {
    meta: snapshot.meta,
    sectors: [...snapshot.bySector.entries()].map(([slug, startups]) => ({
      slug,
      startupCount: startups.length,
      url: urls.sector(slug),
    })),
    formats: {
      json: urls.api('/api/signals.json'),
      csv: urls.api('/api/signals.csv'),
      jsonl: urls.api('/api/dataset.jsonl'),
      feed: urls.api('/feed.xml'),
      openapi: urls.api('/api/openapi.json'),
    },
    resources: ['signal://summary', 'signal://trending', 'signal://startup/{name}'],
  };
}
