import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadBlogPosts, markdownToText, parseBlogPost, readBlogPosts } from '../../../src/core/documents/blog.js';
import { ContentError } from '../../../src/core/answers/content-files.js';
import { CONTENT_VALUES } from '../../../src/content/values.js';

const valid = `---
title: A post
date: 2026-01-05
summary: A summary long enough to pass the schema check.
---
${'Body text. '.repeat(30)}`;

describe('blog posts', () => {
  test('the repository has posts, newest first, each with a slug, date, summary and body', () => {
    const posts = loadBlogPosts();
    assert.ok(posts.length >= 3);
    for (const p of posts) {
      assert.match(p.slug, /^[a-z0-9-]+$/);
      assert.match(p.date, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(p.summary.length >= 20);
    }
    const dates = posts.map((p) => p.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
  });

  test('placeholders in posts are replaced by the rule values', () => {
    const post = loadBlogPosts().find((p) => p.slug === 'measuring-acceleration-not-size')!;
    assert.doesNotMatch(post.body, /\{\{/);
    assert.ok(post.body.includes(`${CONTENT_VALUES.COMMIT_CHANGE_FLOOR} commits`));
  });

  test('a post without front matter is rejected with its file name', () => {
    assert.throws(() => parseBlogPost('/c/blog/post.md', 'no front matter'), ContentError);
  });

  test('a post with an unknown placeholder is rejected', () => {
    assert.throws(() => parseBlogPost('/c/blog/post.md', `${valid} {{NOT_A_VALUE}}`), /unknown placeholder/);
  });

  test('a post with an invalid date is rejected', () => {
    assert.throws(() => parseBlogPost('/c/blog/post.md', valid.replace('2026-01-05', 'yesterday')), /date/);
  });

  test('readBlogPosts reads every .md file of a folder and ignores other files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'blog-'));
    try {
      writeFileSync(path.join(dir, 'first-post.md'), valid);
      writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
      assert.deepEqual(
        readBlogPosts(dir).map((p) => p.slug),
        ['first-post'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('markdownToText drops markup and keeps link text', () => {
    assert.equal(
      markdownToText('## Title\n\nSee [the docs](https://x.test) and `code`.'),
      'Title See the docs and code.',
    );
  });
});
