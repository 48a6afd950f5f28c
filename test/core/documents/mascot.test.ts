import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { buildBrandGuide, readBrandGuide } from '../../../src/core/documents/mascot.js';
import { BrandGuide } from '../../../src/schemas/documents.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot({ startups: 60 });
const guide = buildBrandGuide(readBrandGuide(PACKAGED_CONTENT_DIR), snapshot, BASE);

describe('brand guide', () => {
  test('the payload has exactly the spec fields', () => {
    assert.deepEqual(Object.keys(guide).sort(), [
      'bible_page',
      'cadence',
      'handle_status',
      'handles',
      'hashtag_bank',
      'mascot_name',
      'pillars',
      'posting_hours_utc',
      'sample_batch',
      'schema_version',
      'tone',
      'voice',
    ]);
    assert.deepEqual(BrandGuide.parse(guide), guide);
  });

  test('every handle has a status', () => {
    assert.deepEqual(Object.keys(guide.handle_status).sort(), Object.keys(guide.handles).sort());
  });

  test('the sample batch names the current leader with its real numbers', () => {
    const top = snapshot.trending[0]!;
    const posts = (guide.sample_batch as { posts: { text: string }[] }).posts;
    assert.ok(posts[0]!.text.includes(top.startup.name));
    assert.ok(posts[0]!.text.includes(top.startup.commitVelocityChange));
    for (const post of posts) assert.doesNotMatch(post.text, /\{\{/);
  });

  test('sample posts from the synthetic dataset say so', () => {
    const posts = (guide.sample_batch as { posts: { text: string }[] }).posts;
    assert.match(posts[0]!.text, /synthetic demo data/);
  });
});
