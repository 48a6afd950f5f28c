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

/** Text of ASCII characters only (most of what is indexed). */
const ASCII = /^[\x00-\x7f]*$/;

/** a–z and 0–9: the word characters of lower-cased ASCII text (TOKEN's letters and digits). */
function isAsciiWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/**
 * The offset of the first word of `text` whose index term is a query term (see termHit), or -1. For ASCII text,
 * folding a word is lower-casing it, which keeps every offset: the text is lower-cased once and its words found by
 * hand, so a word costs one slice and a stem-cache look-up, not a match object and three folded copies. Snippets
 * are cut for every hit of every search: what they allocate is a large part of what a search allocates.
 */
function firstHit(text: string, queryTerms: readonly string[]): number {
  if (ASCII.test(text)) {
    const lower = text.toLowerCase();
    const n = lower.length;
    let i = 0;
    while (i < n) {
      while (i < n && !isAsciiWordChar(lower.charCodeAt(i))) i++;
      const start = i;
      while (i < n && isAsciiWordChar(lower.charCodeAt(i))) i++;
      if (i === start) break;
      const term = indexTerm(lower.slice(start, i));
      if (term && termHit(term, queryTerms)) return start;
    }
    return -1;
  }
  for (const match of text.matchAll(TOKEN)) {
    const term = indexTerm(fold(match[0]));
    if (term && termHit(term, queryTerms)) return match.index;
  }
  return -1;
}

/**
 * About 200 characters of `text` around its first run of query terms (compared as index terms, so "accelerating"
 * matches "acceleration"), cut at word boundaries and marked with "…" where text was left out. When no term occurs
 * (a title-only match) the text's beginning is used.
 */
export function snippet(text: string, queryTerms: readonly string[], length = SNIPPET_LENGTH): string {
  // Only text with a run of spaces or another space character needs collapsing (most has neither: no copy then).
  const clean = /\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim();
  if (clean.length <= length) return clean;
  const first = firstHit(clean, queryTerms);
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
