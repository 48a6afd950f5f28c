import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerCorpus } from '../../../src/core/answers/corpus.js';
import { AnswerIndex, normaliseQuery, splitIdentifiers } from '../../../src/core/answers/answer-index.js';
import type { AnswerEntry } from '../../../src/core/answers/entry.js';
import { BASE, demoSnapshot } from '../fixtures.js';
import { mostPerStep } from '../../helpers/steps.js';

describe('answer index', () => {
  test("the build reads the entries' questions in steps, never all of them in one step", () => {
    // Entries whose question is computed when read, as a startup's answer is; 3,000 of them.
    const plain = answerCorpus(demoSnapshot(), BASE).entries.filter(
      (e) => Object.getPrototypeOf(e) === Object.prototype,
    );
    let reads = 0;
    const entries: AnswerEntry[] = Array.from({ length: 3_000 }, (_, i) => {
      const { question, ...rest } = plain[i % plain.length]!;
      return Object.defineProperty({ ...rest, id: `${rest.id}-${i}` }, 'question', {
        get: () => (reads++, question),
        enumerable: true,
      }) as AnswerEntry;
    });
    const most = mostPerStep(AnswerIndex.build(entries), () => reads);
    assert.ok(reads >= entries.length);
    assert.ok(most < entries.length, `${most} reads in one step, for ${entries.length} entries`);
  });

  test('a contraction is a negation, not a word', () => {
    assert.equal(
      normaliseQuery("Why isn't it here? I can't see it, it won't load"),
      'Why is not it here? I can not see it, it will not load',
    );
  });

  test('a negation typed without its apostrophe is a negation too, while "cant" and "wont" stay words', () => {
    assert.equal(
      normaliseQuery('why doesnt it show, isnt it there, dont you list it, i cant tell'),
      'why does not it show, is not it there, do not you list it, i cant tell',
    );
  });

  test('an API field name is also its words', () => {
    assert.equal(
      splitIdentifiers('What does commitVelocity14d measure?'),
      'What does commitVelocity14d commit Velocity14d measure?',
    );
  });

  test('a list the main index cannot retrieve through a word common among startups is still a candidate', () => {
    // "framework" is in the keywords of every startup that shows a framework migration: too common to retrieve there.
    const corpus = answerCorpus(demoSnapshot(), BASE);
    const ids = corpus.index.ask('Which companies are migrating to a new framework?', 5).map((s) => s.entry.id);
    assert.ok(ids.includes('signal-type-framework-migration'), ids.join());
  });

  test('an FAQ is found through its answer wording when its question does not hold the words', () => {
    const corpus = answerCorpus(demoSnapshot(), BASE);
    assert.equal(
      corpus.index.best('Do you count commits to private repositories?')?.entry.id,
      'faq-how-are-bots-excluded',
    );
  });
});
