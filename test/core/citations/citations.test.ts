import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Cite } from '@citation-js/core';
import {
  CITATION_FORMATS,
  citationItems,
  paperItem,
  plainCslText,
  readPaper,
  wikiValue,
  type CslItem,
} from '../../../src/core/citations/citations.js';
import { formatCitation } from '../../../src/core/citations/format.js';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { RESEARCH_SLUGS } from '../../../src/core/documents/research.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot({ startups: 60 });
const paper = readPaper(PACKAGED_CONTENT_DIR);
const items = citationItems(snapshot, BASE, paper);
const HOSTILE_TITLE =
  'Braces {x} and 50% $5 #1 a_b & c ~ ^ "q" <b>bold ]]> \\ end, with a title long enough to pass seventy characters';
const hostile = paperItem({ ...paper, title: HOSTILE_TITLE }, BASE);

function parseBack(text: string): Record<string, unknown> {
  return new Cite(text).data[0]!;
}

describe('citations', () => {
  test('slugs are paper, dataset and every research finding', () => {
    assert.deepEqual([...items.keys()], ['paper', 'dataset', ...RESEARCH_SLUGS]);
  });

  test('BibTeX of every source parses back to the same title and URL', () => {
    for (const item of items.values()) {
      const back = parseBack(formatCitation(item, 'bibtex'));
      assert.equal(back.title, item.title, item.id);
      assert.equal(back.URL, item.URL, item.id);
    }
  });

  test('RIS of every source parses back to the same title, URL and abstract', () => {
    for (const item of items.values()) {
      const back = parseBack(formatCitation(item, 'ris'));
      assert.deepEqual([back.title, back.URL, back.abstract], [item.title, item.URL, item.abstract], item.id);
    }
  });

  test('BibTeX escapes special characters so a hostile title round-trips', () => {
    const text = formatCitation(hostile, 'bibtex');
    assert.equal(parseBack(text).title, hostile.title);
    assert.match(text, /\\%/);
  });

  test('RIS keeps long values on one line so a hostile title round-trips', () => {
    assert.equal(parseBack(formatCitation(hostile, 'ris')).title, hostile.title);
  });

  test('rich-text markup in plain text is neutralised before it reaches the formatter', () => {
    assert.equal(plainCslText('a <b>bold</b> move'), 'a ‹b›bold‹/b› move');
    assert.ok(!hostile.title.includes('<b>'));
  });

  test('the paper carries a DOI only when the content sets one', () => {
    assert.equal(items.get('paper')!.DOI, undefined);
    assert.doesNotMatch(formatCitation(items.get('paper')!, 'bibtex'), /doi/);
    const withDoi = paperItem({ ...paper, doi: '10.5555/example.1' }, BASE);
    assert.equal(parseBack(formatCitation(withDoi, 'bibtex')).DOI, '10.5555/example.1');
  });

  test('the paper cites the configured title, authors, year and URL', () => {
    const apa = formatCitation(items.get('paper')!, 'apa');
    assert.ok(apa.includes(paper.title));
    assert.ok(apa.includes(`(${paper.year})`));
    assert.ok(apa.includes(`${BASE}${paper.url}`));
  });

  test('APA, MLA and Chicago each render the title and the URL of the dataset', () => {
    const dataset = items.get('dataset')!;
    for (const format of ['apa', 'mla', 'chicago'] as const) {
      const text = formatCitation(dataset, format);
      assert.ok(text.includes(dataset.title), format);
      assert.ok(text.includes(dataset.URL), format);
    }
  });

  test('MLA puts the day before the abbreviated month; Chicago puts the year after the author', () => {
    const finding = items.get('stage-mix')!;
    const [y, m, d] = finding.issued['date-parts'][0]!;
    const month = new Date(Date.UTC(y!, m! - 1, d!)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
    assert.ok(formatCitation(finding, 'mla').includes(`${d} ${month}`));
    assert.ok(formatCitation(finding, 'chicago').startsWith(`Signal Service. ${y}.`));
  });

  test('the Wikipedia template escapes pipes and braces so it stays one balanced template', () => {
    const text = formatCitation(hostile, 'wikipedia');
    assert.match(text, /^\{\{cite report .*\}\}\n$/);
    assert.equal((text.match(/\{\{/g) ?? []).length, 1);
    assert.equal((text.match(/\}\}/g) ?? []).length, 1);
    assert.equal(wikiValue('a|b}}c'), 'a&#124;b&#125;&#125;c');
  });

  test('every format ends with one newline', () => {
    const item: CslItem = items.get('dataset')!;
    for (const format of CITATION_FORMATS) assert.match(formatCitation(item, format), /[^\n]\n$/, format);
  });

  test('the dataset is cited with the period as its version and says when it is synthetic', () => {
    const dataset = items.get('dataset')!;
    assert.equal(dataset.version, snapshot.period.name);
    assert.match(dataset.title, /synthetic/);
  });
});
