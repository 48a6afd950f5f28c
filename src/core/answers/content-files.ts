import path from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';

/** The repository's root, where `content/` and `data/` live. */
export const REPO_ROOT = PACKAGE_ROOT;

export function repoPath(...parts: string[]): string {
  return path.join(REPO_ROOT, ...parts);
}

/** A content file that failed its schema: names the file so the fix is obvious at start. */
export class ContentError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Invalid content in ${path.relative(REPO_ROOT, file)}: ${reason}`);
    this.name = 'ContentError';
  }
}

/** Splits `---\nyaml\n---\nbody` into its two parts; undefined when the text has no front matter. */
export function splitFrontMatter(text: string): { front: string; body: string } | undefined {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  return match ? { front: match[1]!, body: match[2]! } : undefined;
}
