import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Cite } from '@citation-js/core';
import { RESEARCH_SLUGS } from '../../../src/core/documents/research.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;
const FORMATS = ['bibtex', 'ris', 'apa', 'mla', 'chicago', 'wikipedia'];

describe('citations', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  test('every format of paper, dataset and a research finding answers 200 text/plain', async () => {
    for (const slug of ['paper', 'dataset', RESEARCH_SLUGS[0]]) {
      for (const format of FORMATS) {
        const res = await svc.get(`/api/cite/${format}/${slug}`);
        assert.equal(res.status, 200, `${format}/${slug}`);
        assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
        assert.ok((await res.text()).length > 20);
      }
    }
  });

  test('every research finding slug can be cited', async () => {
    for (const slug of RESEARCH_SLUGS) assert.equal((await svc.get(`/api/cite/apa/${slug}`)).status, 200, slug);
  });

  test('BibTeX of the dataset parses back with the dataset URL', async () => {
    const text = await (await svc.get('/api/cite/bibtex/dataset')).text();
    const [item] = new Cite(text).data;
    assert.equal(item!.URL, `${svc.url}/api/v1/dataset.jsonl`);
  });

  test('RIS of the paper parses back with the methodology URL', async () => {
    const text = await (await svc.get('/api/cite/ris/paper')).text();
    const [item] = new Cite(text).data;
    assert.equal(item!.URL, `${svc.url}/methodology`);
    assert.equal(item!.type, 'report');
  });

  test('an unknown format is 404 problem+json listing the formats', async () => {
    const res = await svc.get('/api/cite/endnote/paper');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(((await res.json()) as Json).formats, FORMATS);
  });

  test('an unknown slug is 404', async () => {
    const res = await svc.get('/api/cite/bibtex/no-such-finding');
    assert.equal(res.status, 404);
    assert.ok(((await res.json()) as Json).slugs.includes('dataset'));
  });

  for (const [name, path] of [
    ['slug', `/api/cite/bibtex/${encodeURIComponent('<script>alert(1)</script>')}`],
    ['format', `/api/cite/${encodeURIComponent('"><img src=x onerror=alert(1)>')}/paper`],
  ]) {
    test(`a hostile ${name} is 404 and its markup is not echoed`, async () => {
      const res = await svc.get(path!);
      assert.equal(res.status, 404);
      const body = await res.text();
      assert.ok(!body.includes('<script>') && !body.includes('<img'), body);
    });
  }
});
