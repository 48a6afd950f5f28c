import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { PACKAGE_ROOT } from '../../package-root.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The human-written content of the published documents (changelog, glossary, members, affiliates, brand guide,
 * paper, markets) lives in YAML files under content/. Each file is read once per directory and checked against its
 * schema; a bad file stops the start with the file and the field named.
 */

/** content/ of the package. */
export const PACKAGED_CONTENT_DIR = path.join(PACKAGE_ROOT, 'content');

export class DocumentContentError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Invalid content in ${file}: ${reason}`);
    this.name = 'DocumentContentError';
  }
}

const cache = new Map<string, unknown>();

/** Reads `dir/file` as YAML and parses it with `schema`, once per file path. */
export function readYamlContent<S extends z.ZodType>(dir: string, file: string, schema: S): z.output<S> {
  const full = path.resolve(dir, file);
  const key = `${full}\0${schemaKey(schema)}`;
  if (cache.has(key)) return cache.get(key) as z.output<S>;
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (err) {
    throw new DocumentContentError(full, `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw new DocumentContentError(full, `is not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DocumentContentError(full, `${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  cache.set(key, parsed.data);
  return parsed.data as z.output<S>;
}

const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 0;
function schemaKey(schema: object): number {
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = nextSchemaId++));
  return id;
}

/** Resolves a content path-or-URL: a site path ("/methodology") joins the base URL, an absolute URL stays. */
export function resolveSiteUrl(baseUrl: string, pathOrUrl: string): string {
  return pathOrUrl.startsWith('/') ? siteUrls(baseUrl).api(pathOrUrl) : pathOrUrl;
}

/** Replaces `{{name}}` placeholders; an unknown name is an error (so a typo cannot reach a published text). */
export function fillTemplate(template: string, values: Record<string, string | number>, where: string): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_match, name: string) => {
    if (!(name in values)) throw new DocumentContentError(where, `unknown placeholder {{${name}}}`);
    return String(values[name]);
  });
}

/** The directory the documents' content is read from: DOCUMENTS_DIR when set, else content/ of the package. */
export function documentsDir(documents: { dir: string | undefined }): string {
  return documents.dir ?? PACKAGED_CONTENT_DIR;
}
