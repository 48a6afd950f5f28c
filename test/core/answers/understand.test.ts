import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { understand } from '../../../src/core/answers/understand.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();
const [first, second] = snapshot.startups;
const top = (q: string) => {
  const u = understand(snapshot, BASE, q, 3);
  return u.kind === 'answers' ? (u.hits[0]?.entry.id ?? 'none') : u.kind;
};

describe('understanding a question', () => {
  test("a tracked startup's name before a metric asks for that startup's figures", () => {
    assert.equal(top(`What is ${first!.startup.name}'s commit velocity?`), `signal-${first!.login}`);
    assert.equal(top(`${second!.startup.name} commit velocity`), `signal-${second!.login}`);
  });

  test('a possessive ends a name: the capitalised words after it are not part of it', () => {
    assert.equal(top("Who led Supabase's Series A?"), 'backers-supabase');
  });

  test('a deal question about a startup the diligence corpus does not hold is answered with what diligence covers', () => {
    assert.equal(top(`Who acquired ${first!.startup.name}?`), 'faq-do-demo-startups-have-diligence');
  });

  test('a request for a prediction is out of scope', () => {
    assert.equal(top('Predict which company will be the next unicorn'), 'out-of-scope');
    assert.equal(top('Which startup should I put money into?'), 'out-of-scope');
  });

  test('"speeding up" asks for acceleration and "space companies" for the Space Tech sector', () => {
    assert.equal(top('Which space companies are speeding up the most?'), 'fastest-accelerating-space-tech');
  });

  test('"based on" is not a question about geography, "where … based" is', () => {
    assert.equal(top('What is the ranking based on?'), 'faq-how-is-ranking-computed');
    assert.equal(top('how do you figure out where a startup is based'), 'faq-how-are-geographies-derived');
  });

  test('a name asked about in "which rounds did X lead" that nothing holds is not tracked', () => {
    assert.equal(top('Which rounds did Index Exchange lead?'), 'not-tracked');
  });
});
