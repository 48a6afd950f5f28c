import { indexTerm } from './text.js';

const SNIPPET_LENGTH = 200;
const TOKEN = /[\p{L}\p{N}]+/gu;

function fold(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

function termHit(term: string, queryTerms: readonly string[]): boolean {
  return queryTerms.some(
    (q) => term === q || (q.length >= 4 && term.startsWith(q)) || (term.length >= 4 && q.startsWith(term)),
  );
}

/**
 * About 200 characters of `text` around its first run of query terms (compared as index terms, so "accelerating"
 * matches "acceleration"), cut at word boundaries and marked with "…" where text was left out. When no term occurs
 * (a title-only match) the text's beginning is used.
 */
export function snippet(text: string, queryTerms: readonly string[], length = SNIPPET_LENGTH): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= length) return clean;
  let first = -1;
  for (const match of clean.matchAll(TOKEN)) {
    const term = indexTerm(fold(match[0]));
    if (term && termHit(term, queryTerms)) {
      first = match.index;
      break;
    }
  }
  let start = first <= 0 ? 0 : Math.max(0, first - Math.floor(length / 4));
  if (start > 0) {
    const space = clean.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(clean.length, start + length);
  if (end < clean.length) {
    const space = clean.lastIndexOf(' ', end);
    if (space > start + length / 2) end = space;
  }
  return `${start > 0 ? '…' : ''}${clean.slice(start, end).trim()}${end < clean.length ? '…' : ''}`;
}
