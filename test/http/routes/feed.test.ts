import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Parser from 'rss-parser';
import { loadBlogPosts } from '../../../src/core/documents/blog.js';
import { sectors } from '../../../src/domain/sectors.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

describe('feed and llms.txt', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  test('/feed.xml is RSS 2.0 with one item per stored period plus one per blog post', async () => {
    const res = await svc.get('/feed.xml');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/rss+xml; charset=utf-8');
    const feed = await new Parser().parseString(await res.text());
    const periods = svc.service.holder.current!.periods.length;
    assert.equal(feed.items.length, periods + loadBlogPosts().length);
  });

  test('every period item links its period page', async () => {
    const feed = await new Parser().parseString(await (await svc.get('/feed.xml')).text());
    const links = new Set(feed.items.map((i) => i.link));
    for (const p of svc.service.holder.current!.periods) assert.ok(links.has(`${svc.url}/periods/${p.slug}`), p.slug);
  });

  test('the newest period item names the current trending leader', async () => {
    const feed = await new Parser().parseString(await (await svc.get('/feed.xml')).text());
    const current = svc.service.holder.current!;
    const item = feed.items.find((i) => i.link === `${svc.url}/periods/${current.period.slug}`)!;
    assert.ok(item.content!.includes(current.trending[0]!.startup.name));
  });

  test('/feed.xml answers 304 to its own ETag', async () => {
    const etag = (await svc.get('/feed.xml')).headers.get('etag')!;
    assert.equal((await svc.get('/feed.xml', { headers: { 'if-none-match': etag } })).status, 304);
  });

  test('/llms.txt is plain text listing every OpenAPI path with its URL', async () => {
    const res = await svc.get('/llms.txt');
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    const text = await res.text();
    const openapi = (await (await svc.get('/api/openapi.json')).json()) as Json;
    for (const path of Object.keys(openapi.paths)) assert.ok(text.includes(`](${svc.url}${path})`), path);
  });

  test('/llms.txt lists the sectors and how to cite', async () => {
    const text = await (await svc.get('/llms.txt')).text();
    for (const s of sectors) assert.ok(text.includes(`${svc.url}/sectors/${s.slug}`), s.slug);
    assert.match(text, /## How to cite/);
    assert.ok(text.includes(`${svc.url}/api/cite/bibtex/dataset`));
  });
});
