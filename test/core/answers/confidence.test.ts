import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { confidence, MIN_CONFIDENCE, termMatches } from '../../../src/core/answers/confidence.js';
import { contentTerms } from '../../../src/core/search/text.js';

const c = (query: string, question: string, keywords = '') =>
  confidence(contentTerms(query), contentTerms(question), contentTerms(keywords));

describe('answer confidence', () => {
  test('a four-letter term of the question matches a longer query term only as the start of a compound', () => {
    assert.equal(termMatches('dataset', 'data'), true);
    assert.equal(termMatches('europ', 'euro'), false);
    assert.equal(termMatches('accelerat', 'accel'), true);
  });

  test('the same question scores 1', () => {
    assert.equal(c('How often is the data refreshed?', 'How often is the data refreshed?'), 1);
  });

  test('a query fully inside a longer question scores 0.7 plus the covered share of the question', () => {
    // query {robot, startup}; question {fastest, acceler, robot, startup}: 0.7 × 1 + 0.3 × 2/4
    assert.equal(c('robotics startups', 'Which are the fastest accelerating Robotics startups?'), 0.85);
  });

  test('unrelated words score 0', () => {
    assert.equal(c('banana smoothie', 'Which startups are trending this week?'), 0);
  });

  test('stop words alone give no terms and score 0', () => {
    assert.deepEqual(contentTerms('what is the'), []);
    assert.equal(c('what is the', 'What is the data licence?'), 0);
  });

  test('inflections match through stemming', () => {
    assert.equal(c('refreshes', 'refreshed'), 1);
  });

  test('a one-letter typo in a long word still matches', () => {
    assert.ok(termMatches('acceleratng', 'accelerating'));
    assert.ok(!termMatches('cat', 'bat'));
  });

  test('keywords count for the query side only', () => {
    const withKeyword = c('euro', 'How much does a call cost?', 'euro');
    const without = c('euro', 'How much does a call cost?');
    assert.equal(without, 0);
    assert.equal(withKeyword, 0.7);
  });

  test('the floor sits between a one-word partial match and no match', () => {
    assert.ok(MIN_CONFIDENCE > 0 && MIN_CONFIDENCE < 0.7);
  });

  test('a query word only the answer wording holds counts half', () => {
    // query {privat, repositori}; question {bot, commit}; wording holds both: 0.7 × (0.5 + 0.5) / 2
    const value = confidence(
      contentTerms('private repositories'),
      contentTerms('Are bot commits counted?'),
      [],
      contentTerms('Commits to private repositories are never counted.'),
    );
    assert.equal(value, 0.35);
  });

  test('company and startup stand for each other', () => {
    assert.ok(termMatches('compani', 'startup'));
    assert.ok(termMatches('startup', 'compani'));
  });

  test('an everyday word for a word of the service matches it, both ways', () => {
    assert.equal(c('How frequently are the numbers updated?', 'How often is the data refreshed?'), 1);
    assert.ok(termMatches('bill', 'charg'));
    assert.ok(termMatches('charg', 'bill'));
  });

  test('words of different groups of everyday words do not match', () => {
    assert.ok(!termMatches('bill', 'often'));
    assert.ok(!termMatches('cost', 'refresh'));
  });
});
