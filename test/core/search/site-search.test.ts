import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { searchDocuments, siteSearch } from '../../../src/core/search/documents.js';
import { SiteSearch, type SearchDocument } from '../../../src/core/search/site-search.js';
import { SEARCH_TYPES, SearchHit } from '../../../src/schemas/answers.js';
import { BASE, demoSnapshot } from '../fixtures.js';
import { mostPerStep } from '../../helpers/steps.js';

const snapshot = demoSnapshot();
const search = siteSearch(snapshot, BASE);

describe('site search', () => {
  test('the index holds documents of all seven types', () => {
    const types = new Set(searchDocuments(snapshot, BASE).map((d) => d.type));
    assert.deepEqual([...types].sort(), [...SEARCH_TYPES].sort());
  });

  test('each type filter returns only hits of that type', () => {
    const queries: Record<string, string> = {
      startup: snapshot.startups[0]!.startup.name,
      sector: 'robotics',
      blog: 'demo dataset',
      comparison: snapshot.startups[0]!.startup.name,
      answer: 'fastest accelerating robotics',
      faq: 'credits expire',
      research: 'median commit velocity',
    };
    for (const type of SEARCH_TYPES) {
      const result = search.search(queries[type]!, { type, limit: 50 });
      assert.ok(result.hits.length > 0, type);
      assert.ok(
        result.hits.every((h) => h.type === type),
        type,
      );
    }
  });

  test('a startup name ranks its own page first', () => {
    const s = snapshot.startups[42]!;
    const hit = search.search(s.startup.name, { type: 'startup', limit: 1 }).hits[0]!;
    assert.equal(hit.url, `${BASE}/startups/${s.login}`);
    assert.equal(hit.title, `${s.startup.name} (synthetic demo data)`);
  });

  test("a query that is a sector's name ranks that sector first among all types", () => {
    for (const query of ['robotics', 'Robotics', 'e-commerce infrastructure', 'HR Tech']) {
      const first = search.search(query, { limit: 5 }).hits[0]!;
      assert.equal(first.type, 'sector', query);
      assert.match(first.title, new RegExp(`^${query.replace('-', '.')} startups`, 'i'));
    }
  });

  test("a query that is a startup's name ranks its page first among all types, scores still falling", () => {
    const s = snapshot.startups[7]!;
    const hits = search.search(s.startup.name.toUpperCase(), { limit: 10 }).hits;
    assert.equal(hits[0]!.url, `${BASE}/startups/${s.login}`);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
  });

  test('a name match still respects the type filter and the limit', () => {
    const answers = search.search('robotics', { type: 'answer', limit: 3 });
    assert.ok(answers.hits.every((h) => h.type === 'answer'));
    assert.equal(answers.hits.length, 3);
    assert.equal(search.search('robotics', { limit: 1 }).hits.length, 1);
  });

  test('equal scores come in a fixed, meaningful order: by type, then title', () => {
    const docs = searchDocuments(snapshot, BASE);
    const again = searchDocuments(snapshot, BASE);
    assert.deepEqual(
      docs.map((d) => d.url),
      again.map((d) => d.url),
    );
    const startups = docs.filter((d) => d.type === 'startup').map((d) => d.title);
    assert.deepEqual(
      startups,
      [...startups].sort((a, b) => a.localeCompare(b, 'en')),
    );
    assert.ok(docs.findIndex((d) => d.type === 'answer') < docs.findIndex((d) => d.type === 'blog'));
  });

  test('"Microsoft" and "acquisition" find the diligence answers', () => {
    const microsoft = search.search('Microsoft', { limit: 5 }).hits;
    assert.ok(
      microsoft.some((h) => h.title === 'Which companies has Microsoft acquired?'),
      JSON.stringify(microsoft),
    );
    const acquisition = search.search('acquisition', { limit: 10 }).hits;
    assert.ok(
      acquisition.some((h) => /acquired/.test(h.title)),
      JSON.stringify(acquisition),
    );
  });

  test('sector and comparison hits say the demo data is synthetic', () => {
    for (const type of ['sector', 'comparison'] as const) {
      const hits = search.search('startups commits', { type, limit: 3 }).hits;
      assert.ok(hits.length > 0, type);
      for (const h of hits) assert.match(h.title, /\(synthetic demo data\)$/, type);
    }
  });

  test('total counts every match and hits stop at the limit, best score first', () => {
    const result = search.search('robotics startups', { limit: 3 });
    assert.equal(result.hits.length, 3);
    assert.ok(result.total > 3);
    const scores = result.hits.map((h) => h.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  });

  test('hits have exactly the SearchHit fields and a snippet with a matched word', () => {
    const result = search.search('contributor growth', { limit: 5 });
    for (const hit of result.hits) {
      SearchHit.parse(hit);
      assert.deepEqual(Object.keys(hit).sort(), ['score', 'snippet', 'title', 'type', 'url']);
    }
    assert.match(result.hits.map((h) => `${h.title} ${h.snippet}`).join(' '), /contributor|growth/i);
  });

  test('a query of stop words only finds nothing', () => {
    assert.deepEqual(search.search('what is the', { limit: 10 }), { total: 0, hits: [] });
  });

  test('words that occur nowhere find nothing', () => {
    assert.equal(search.search('xylophonequartz', { limit: 10 }).total, 0);
  });

  test('an index over given documents finds by prefix and by typo', () => {
    const index = new SiteSearch([
      { type: 'blog', url: 'https://s.test/blog/a', title: 'Kubernetes operators', text: 'Operators reconcile state.' },
      { type: 'blog', url: 'https://s.test/blog/b', title: 'Postgres tuning', text: 'Vacuum and indexes.' },
    ]);
    assert.equal(index.search('kubern', { limit: 5 }).hits[0]!.url, 'https://s.test/blog/a');
    assert.equal(index.search('vacuun', { limit: 5 }).hits[0]!.url, 'https://s.test/blog/b');
  });

  test("the build reads the documents' fields in steps, never all of them in one step", () => {
    // Documents whose text is computed when first read, as the answers' and startups' are; 12,000 of them.
    const base = searchDocuments(snapshot, BASE);
    let reads = 0;
    const documents: SearchDocument[] = Array.from({ length: 12_000 }, (_, i) => {
      const { text, ...rest } = base[i % base.length]!;
      return Object.defineProperty({ ...rest, url: `${rest.url}?copy=${i}` }, 'text', {
        get: () => (reads++, text),
        enumerable: true,
      }) as SearchDocument;
    });
    const most = mostPerStep(SiteSearch.build(documents), () => reads);
    assert.ok(reads >= documents.length);
    assert.ok(most <= documents.length / 2, `${most} texts read in one step`);
  });
});
