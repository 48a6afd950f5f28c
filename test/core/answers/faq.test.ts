import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadFaq, readFaq } from '../../../src/core/answers/faq.js';
import { ContentError } from '../../../src/core/answers/content-files.js';

function withFaqDir(files: Record<string, string>, run: (dir: string) => void): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'faq-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const item = (slug: string, extra = '') => `  - slug: ${slug}
    question: Is this a question?
    answer: An answer that is long enough.
    sources:
      - claim: A claim with a source.
        path: /api/signals.json
${extra}`;

describe('FAQ content', () => {
  test('the repository FAQ has at least 60 questions with unique slugs', () => {
    const entries = readFaq();
    assert.ok(entries.length >= 60, `${entries.length} questions`);
    assert.equal(new Set(entries.map((e) => e.slug)).size, entries.length);
  });

  test('resolved answers have no placeholder left and absolute source URLs', () => {
    for (const faq of loadFaq('https://s.test')) {
      assert.doesNotMatch(`${faq.question} ${faq.answer}`, /\{\{/, faq.slug);
      assert.equal(faq.url, `https://s.test/faq#${faq.slug}`);
      for (const fact of faq.facts) assert.match(fact.sourceUrl, /^https:\/\//);
      for (const rel of faq.related) assert.match(rel.url, /^https:\/\/s\.test\/faq#/);
    }
  });

  test('the FAQ covers pricing, x402, Solana, MCP, the licence, limits, refresh and citing', () => {
    const slugs = new Set(readFaq().map((e) => e.slug));
    for (const slug of [
      'how-much-does-deep-signal-cost',
      'how-does-x402-payment-work',
      'how-does-solana-payment-work',
      'how-do-i-install-the-mcp-server',
      'what-is-the-data-licence',
      'what-are-the-rate-limits',
      'how-often-is-data-refreshed',
      'how-do-i-cite-the-data',
    ]) {
      assert.ok(slugs.has(slug), slug);
    }
  });

  test('pricing answers state the interface constants', () => {
    const text = loadFaq('https://s.test').find((f) => f.slug === 'how-much-does-deep-signal-cost')!.answer;
    assert.match(text, /0\.19 EUR per call/);
    assert.match(text, /100 credits for 19 EUR/);
    assert.match(text, /0\.19 USD/);
    const solana = loadFaq('https://s.test').find((f) => f.slug === 'how-does-solana-payment-work')!.answer;
    assert.match(solana, /19 units of the stablecoin for 100 credits/);
  });

  test('a duplicated slug is rejected', () => {
    withFaqDir({ 'a.yaml': `topic: test\nquestions:\n${item('same')}${item('same')}` }, (dir) => {
      assert.throws(() => readFaq(dir), /used twice/);
    });
  });

  test('a related slug that does not exist is rejected', () => {
    withFaqDir({ 'a.yaml': `topic: test\nquestions:\n${item('one', '    related: [missing]\n')}` }, (dir) => {
      assert.throws(() => readFaq(dir), /related question missing does not exist/);
    });
  });

  test('a question without a source is rejected with the file name', () => {
    const text =
      'topic: test\nquestions:\n  - slug: x\n    question: Is this a question?\n    answer: An answer long enough.\n';
    withFaqDir({ 'bad.yaml': text }, (dir) => {
      assert.throws(
        () => readFaq(dir),
        (err: unknown) => err instanceof ContentError && /bad\.yaml/.test(err.message) && /sources/.test(err.message),
      );
    });
  });

  test('an unknown placeholder is rejected', () => {
    withFaqDir(
      { 'a.yaml': `topic: test\nquestions:\n${item('one').replace('long enough', 'long enough {{NOPE}}')}` },
      (dir) => {
        assert.throws(() => readFaq(dir), /unknown placeholder \{\{NOPE\}\}/);
      },
    );
  });
});
