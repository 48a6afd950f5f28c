import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ContentError, repoPath } from './content-files.js';
import { interpolate, unknownPlaceholders } from '../../content/values.js';
import { siteUrls } from '../../domain/urls.js';
import type { Fact, RelatedQuestion } from '../../schemas/answers.js';

/**
 * The standalone FAQ corpus: YAML files in content/faq/, one per topic, each a list of questions. Checked against a
 * schema when loaded: slugs unique, related slugs existing, placeholders known. A bad file stops the start and names
 * itself.
 *
 * Text may use `{{NAME}}` placeholders (see src/content/values.ts) and `{{BASE_URL}}` for this service's origin.
 */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const FaqSource = z.union([
  z
    .object({ claim: z.string().min(5), path: z.string().regex(/^\/[^\s]*$/, 'must be a path starting with /') })
    .strict(),
  z.object({ claim: z.string().min(5), url: z.url({ protocol: /^https$/ }) }).strict(),
]);

const FaqItem = z
  .object({
    slug: z.string().regex(SLUG, 'must be a lower-case slug'),
    question: z
      .string()
      .trim()
      .min(8)
      .max(200)
      .refine((q) => q.endsWith('?'), 'must end with a question mark'),
    answer: z.string().trim().min(20).max(2000),
    keywords: z.array(z.string().trim().min(2).max(40)).max(12).default([]),
    related: z.array(z.string().regex(SLUG)).max(6).default([]),
    sources: z.array(FaqSource).min(1).max(6),
  })
  .strict();

const FaqFile = z
  .object({
    topic: z.string().trim().min(3).max(60),
    questions: z.array(FaqItem).min(1),
  })
  .strict();

export type FaqSource = z.infer<typeof FaqSource>;
export interface FaqEntry extends z.infer<typeof FaqItem> {
  topic: string;
}

export const FAQ_DIR = repoPath('content', 'faq');
const BASE_PLACEHOLDER = 'BASE_URL';

function fail(file: string, issue: z.core.$ZodIssue): never {
  throw new ContentError(file, `${issue.path.join('.') || 'document'}: ${issue.message}`);
}

/** Reads and checks every `.yaml` file of `dir`; entries keep file order, files go by name. */
export function readFaq(dir: string = FAQ_DIR): FaqEntry[] {
  const entries: FaqEntry[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
  for (const name of files) {
    const file = path.join(dir, name);
    let document: unknown;
    try {
      document = parseYaml(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ContentError(file, `not YAML (${(err as Error).message})`);
    }
    const parsed = FaqFile.safeParse(document);
    if (!parsed.success) fail(file, parsed.error.issues[0]!);
    for (const item of parsed.data.questions) {
      const text = [item.question, item.answer, ...item.sources.map((s) => s.claim)].join('\n');
      const unknown = unknownPlaceholders(text, [BASE_PLACEHOLDER]);
      if (unknown.length) throw new ContentError(file, `${item.slug}: unknown placeholder {{${unknown[0]}}}`);
      entries.push({ ...item, topic: parsed.data.topic });
    }
  }
  const slugs = new Set<string>();
  for (const entry of entries) {
    if (slugs.has(entry.slug)) throw new ContentError(dir, `the slug ${entry.slug} is used twice`);
    slugs.add(entry.slug);
  }
  for (const entry of entries) {
    for (const related of entry.related) {
      if (!slugs.has(related) || related === entry.slug) {
        throw new ContentError(dir, `${entry.slug}: related question ${related} does not exist`);
      }
    }
  }
  return entries;
}

/** A FAQ entry with its text interpolated and its links absolute on `baseUrl`. */
export interface ResolvedFaq {
  slug: string;
  topic: string;
  question: string;
  answer: string;
  keywords: string[];
  url: string;
  facts: Fact[];
  related: RelatedQuestion[];
}

export function resolveFaq(entries: readonly FaqEntry[], baseUrl: string): ResolvedFaq[] {
  const urls = siteUrls(baseUrl);
  const text = (s: string) => interpolate(s, { [BASE_PLACEHOLDER]: baseUrl });
  const bySlug = new Map(entries.map((e) => [e.slug, e]));
  return entries.map((entry) => ({
    slug: entry.slug,
    topic: entry.topic,
    question: text(entry.question),
    answer: text(entry.answer),
    keywords: entry.keywords,
    url: urls.faq(entry.slug),
    facts: entry.sources.map((s) => ({ claim: text(s.claim), sourceUrl: 'path' in s ? urls.api(s.path) : s.url })),
    related: entry.related.map((slug) => ({ question: text(bySlug.get(slug)!.question), url: urls.faq(slug) })),
  }));
}

let cached: FaqEntry[] | undefined;
const resolved = new Map<string, ResolvedFaq[]>();

/** The repository's FAQ, read and checked once per process, resolved once per base URL. */
export function loadFaq(baseUrl: string): ResolvedFaq[] {
  let list = resolved.get(baseUrl);
  if (!list) {
    list = resolveFaq((cached ??= readFaq()), baseUrl);
    resolved.set(baseUrl, list);
  }
  return list;
}
