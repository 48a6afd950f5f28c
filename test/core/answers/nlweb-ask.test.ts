import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nlwebAsk, type NlwebResult } from '../../../src/core/answers/nlweb-ask.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();

describe('NLWeb /ask', () => {
  test('a site-search hit is scored under 70, the score of a confident answer, even as the best page', () => {
    // Questions the answer service does not answer, so every result comes from the site search.
    let searched = 0;
    for (const query of ['What is the capital city of Australia?', 'recipe for a good pizza dough']) {
      const messages = nlwebAsk(snapshot, BASE, { query, mode: 'list', limit: 10 });
      const results = messages.flatMap((m) =>
        m.message_type === 'result_batch' ? (m['results'] as NlwebResult[]) : [],
      );
      searched += results.length;
      for (const r of results) {
        assert.equal(r.ranking_type, 'search', query);
        assert.ok(r.score < 70, `${query}: ${r.name} at ${r.score}`);
      }
    }
    assert.ok(searched > 0);
  });
});
