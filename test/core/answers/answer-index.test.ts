import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerCorpus } from '../../../src/core/answers/corpus.js';
import { AnswerIndex } from '../../../src/core/answers/answer-index.js';
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
});
