import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { CHANGELOG_FILE } from '../../../src/core/documents/changelog.js';
import { DocumentContentError, PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { DocumentsService } from '../../../src/core/documents/service.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const documents = new DocumentsService(PACKAGED_CONTENT_DIR, BASE);
const snapshot = demoSnapshot({ startups: 30 });
const dirs: string[] = [];
after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('documents service', () => {
  test('a fixed document is served as the JSON of the value a page shows', () => {
    assert.deepEqual(JSON.parse(documents.glossary.body.body.toString('utf8')), documents.glossary.document);
    assert.equal(documents.methodology.body.contentType, 'application/json; charset=utf-8');
  });

  test('a document computed from a period is built once per period', () => {
    assert.equal(documents.changelog(snapshot), documents.changelog(snapshot));
    assert.notEqual(documents.changelog(snapshot), documents.changelog(demoSnapshot({ startups: 30 })));
    assert.equal(documents.changelog(snapshot).document.periods.length, snapshot.periods.length);
  });

  test('a citation is rendered once per period, format and slug; an unknown slug has none', async () => {
    const first = await documents.citation(snapshot, 'wikipedia', 'paper');
    assert.ok(first);
    assert.equal(await documents.citation(snapshot, 'wikipedia', 'paper'), first);
    assert.equal(await documents.citation(snapshot, 'wikipedia', 'no-such-slug'), undefined);
    assert.ok(documents.citationSlugs(snapshot).includes('dataset'));
  });

  test('a content file that fails its checks stops the service from being built', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'documents-service-'));
    dirs.push(dir);
    fs.cpSync(PACKAGED_CONTENT_DIR, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, CHANGELOG_FILE), 'releases: []\n');
    assert.throws(() => new DocumentsService(dir, BASE), DocumentContentError);
  });
});
