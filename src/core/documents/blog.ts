import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ContentError, repoPath, splitFrontMatter } from '../answers/content-files.js';
import { interpolate, unknownPlaceholders } from '../../content/values.js';

/**
 * Blog posts: Markdown files in content/blog/ with YAML front matter (title, date, summary). The file name without
 * `.md` is the slug. Checked against a schema when first loaded; a bad file stops the start with its name. Numbers
 * the methodology fixes are written as `{{NAME}}` placeholders (see src/content/values.ts), so a post cannot
 * drift from the rules.
 */
export interface BlogPost {
  slug: string;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  summary: string;
  /** Markdown. */
  body: string;
  tags: string[];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const FrontMatter = z
  .object({
    title: z.string().trim().min(3).max(160),
    date: z.iso.date(),
    summary: z.string().trim().min(20).max(400),
    tags: z.array(z.string().trim().min(1).max(40)).max(10).default([]),
  })
  .strict();

export const BLOG_DIR = repoPath('content', 'blog');

export function parseBlogPost(file: string, text: string): BlogPost {
  const slug = path.basename(file, '.md');
  if (!SLUG.test(slug)) throw new ContentError(file, 'the file name must be a lower-case slug like my-post.md');
  const parts = splitFrontMatter(text);
  if (!parts) throw new ContentError(file, 'missing YAML front matter between --- lines');
  let front: unknown;
  try {
    front = parseYaml(parts.front);
  } catch (err) {
    throw new ContentError(file, `front matter is not YAML (${(err as Error).message})`);
  }
  const parsed = FrontMatter.safeParse(front);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(file, `${issue.path.join('.') || 'front matter'}: ${issue.message}`);
  }
  const unknown = unknownPlaceholders(`${parts.body}\n${parsed.data.summary}\n${parsed.data.title}`);
  if (unknown.length) throw new ContentError(file, `unknown placeholder {{${unknown[0]}}}`);
  const body = interpolate(parts.body.trim());
  if (body.length < 200) throw new ContentError(file, 'the body is shorter than 200 characters');
  const { title, summary, ...rest } = parsed.data;
  return { slug, ...rest, title: interpolate(title), summary: interpolate(summary), body };
}

/** Reads every post of `dir`, newest first (ties by slug). */
export function readBlogPosts(dir: string = BLOG_DIR): BlogPost[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  return files
    .map((f) => parseBlogPost(path.join(dir, f), readFileSync(path.join(dir, f), 'utf8')))
    .sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? 1 : -1));
}

let cached: BlogPost[] | undefined;

/** The repository's blog posts, newest first; read and checked once per process. */
export function loadBlogPosts(): BlogPost[] {
  return (cached ??= readBlogPosts());
}

/** Plain text of a Markdown body (for search snippets and feed summaries): markup removed, whitespace collapsed. */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/[*_`>|]/g, '')
    .replace(/^\s*[-+]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}
