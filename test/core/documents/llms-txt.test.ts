import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentTools } from '../../../src/agents/registry.js';
import { buildLlmsTxt, surfacesFromOpenApi } from '../../../src/core/documents/llms-txt.js';
import { researchFindings } from '../../../src/core/documents/research.js';
import { sectors } from '../../../src/domain/sectors.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot({ startups: 60 });
const surfaces = surfacesFromOpenApi({
  paths: {
    '/api/signals.json': { get: { summary: 'Current period' } },
    '/api/cite/{format}/{slug}': { get: { summary: 'A citation [with brackets]' } },
    '/api/diligence.json': { get: { summary: 'Dossier' }, post: { summary: 'Dossier by body' } },
  },
});
const text = buildLlmsTxt({
  baseUrl: BASE,
  snapshot,
  surfaces,
  tools: agentTools,
  findings: researchFindings(snapshot, BASE),
  markets: [{ slug: 'm', question: 'Which one?', url: `${BASE}/api/markets/m` }],
});

describe('llms.txt', () => {
  test('starts with the title and a one-line summary', () => {
    assert.match(text, /^# Signal Service\n\n> .+\n/);
  });

  test('every OpenAPI operation is listed with its URL, sorted by path', () => {
    assert.deepEqual(
      surfaces.map((s) => `${s.method} ${s.path}`),
      ['GET /api/cite/{format}/{slug}', 'GET /api/diligence.json', 'POST /api/diligence.json', 'GET /api/signals.json'],
    );
    assert.ok(text.includes(`- [GET /api/signals.json](${BASE}/api/signals.json): Current period`));
    assert.ok(text.includes(`- [POST /api/diligence.json](${BASE}/api/diligence.json): Dossier by body`));
  });

  test('brackets in summaries are escaped so links stay intact', () => {
    assert.ok(text.includes('A citation \\[with brackets\\]'));
  });

  test('all 15 sectors are listed with their pages', () => {
    for (const s of sectors) assert.ok(text.includes(`(${BASE}/sectors/${s.slug})`), s.slug);
  });

  test('the how-to-cite section gives the citation and a URL per format', () => {
    assert.ok(text.includes(snapshot.meta.citation));
    for (const f of ['bibtex', 'ris', 'apa', 'mla', 'chicago', 'wikipedia']) {
      assert.ok(text.includes(`${BASE}/api/cite/${f}/dataset`), f);
    }
  });

  test('every agent tool and research finding is named', () => {
    for (const t of agentTools) assert.ok(text.includes(`- ${t.name}: `), t.name);
    for (const f of researchFindings(snapshot, BASE)) assert.ok(text.includes(f.url), f.slug);
  });

  test('synthetic data is labelled', () => {
    assert.match(text, /SYNTHETIC DEMO DATASET/);
  });
});
