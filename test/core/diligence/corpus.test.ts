import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadDiligenceCorpus, readDiligenceCorpus } from '../../../src/core/diligence/corpus.js';

const corpus = loadDiligenceCorpus();

describe('diligence corpus', () => {
  test('documents at least 40 acquisitions', () => {
    assert.ok(corpus.acquisitions.length >= 40, `${corpus.acquisitions.length} acquisitions`);
  });

  test('every fact has at least one https source URL with its kind and publisher', () => {
    for (const fact of [...corpus.acquisitions, ...corpus.backers]) {
      assert.ok(fact.sources.length > 0);
      for (const source of fact.sources) {
        const url = new URL(source.url);
        assert.equal(url.protocol, 'https:', source.url);
        assert.ok(['press-release', 'regulatory-filing', 'both-sides'].includes(source.kind));
        assert.ok(source.publisher.length > 0);
      }
    }
  });

  test('a fact marked both-sides cites two sources', () => {
    for (const fact of corpus.acquisitions) {
      if (fact.sources.some((s) => s.kind === 'both-sides')) assert.ok(fact.sources.length >= 2, fact.target);
    }
  });

  test('no acquisition is listed twice', () => {
    const keys = corpus.acquisitions.map((a) => `${a.acquirer}→${a.target}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  test('completion never precedes announcement', () => {
    for (const a of corpus.acquisitions) if (a.completed) assert.ok(a.completed >= a.announced, a.target);
  });

  test('entities index both sides of every fact', () => {
    const github = corpus.entities.find((e) => e.name === 'GitHub')!;
    assert.deepEqual(
      github.acquiredBy.map((a) => a.acquirer),
      ['Microsoft'],
    );
    assert.ok(github.acquisitionsMade.some((a) => a.target === 'npm'));
    const accel = corpus.entities.find((e) => e.name === 'Accel')!;
    assert.ok(accel.investments.length >= 1);
  });

  test('a fact without a source is rejected when loading', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dil-'));
    try {
      writeFileSync(
        path.join(dir, 'acquisitions.yaml'),
        '- acquirer: A\n  target: B\n  announced: 2020-01-01\n  completed: null\n  value: null\n  sources: []\n',
      );
      writeFileSync(path.join(dir, 'backers.yaml'), '[]\n');
      writeFileSync(path.join(dir, 'entities.yaml'), '[]\n');
      assert.throws(() => readDiligenceCorpus(dir), /sources/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
