import { distance } from 'fastest-levenshtein';
import { LRUCache } from 'lru-cache';

/**
 * Name resolution: the one rule every surface that takes a company name uses (/api/signal, /api/diligence.json,
 * answers, search, NLWeb, Deep Signal, the agent tools). A wrong company is worse than none, so the rule is strict:
 *
 * 1. Names are folded: Unicode-folded (accents removed), lower case, split into words at anything that is not a
 *    letter or digit; trailing legal suffixes ("Inc", "Corp.", "GmbH" …) are dropped. Distinctive words are kept: a
 *    leading "The" ("The Sun" is a newspaper, not Sun Microsystems) and a domain ending ("Sentry.com" is Sentry
 *    Insurance's domain): a domain resolves only when it is an entity's recorded name or alias ("salesforce.com").
 * 2. A query MATCHES an entity when its folded letters equal (spaces ignored) the entity's name (`exact`), its GitHub
 *    organisation slug (`slug`) or a documented alias or former name (`alias`);
 * 3. or when it is a confident typo of its name or an alias (`typo`): word by word, in order, each query word is the
 *    entity's word with the same first letter and at most 0 edits for words of up to 3 letters, 1 for 4–8 letters,
 *    2 for 9 or more (insertion, deletion, substitution, or a transposition of neighbours, each one edit), every word
 *    of the name there. A query that leaves words out ("Novonix" for "Novonix Commerce") is the first words of a
 *    name another company may hold in full: a candidate, never the match. A query of generic words alone (sector and
 *    industry words such as Labs, Health, Cloud, Systems, Capital) never matches.
 * 4. The best kind wins (exact name, then slug, then alias, then the typo with fewest edits). Two different entities
 *    equally good at the best kind are AMBIGUOUS: no match, both offered as candidates.
 *
 * Step 3 is for the tracked startups of a period on the free lookup only. Real-world names are dense — a one-letter
 * difference is usually another company (Linde is not Linode) — so wherever a real company's facts or money are at
 * stake (diligence, answers, Deep Signal), a lookup is STRICT (`{ typos: false }`): only step 2 matches, and a
 * near name is a "did you mean" candidate, never the answer. The one typo a strict look-up reads is a misspelt
 * generic word: the whole name, its distinctive words exact, its generic words within step 3's allowance, and no
 * other name as close ("Beletzen Frieght"), since a misspelt sector word is not another company. Where a hit is
 * charged (Deep Signal) not even that (`{ typos: false, misspeltGenerics: false }`).
 *
 * Anything else is NONE, with candidates ("did you mean") when something is close: a name one edit beyond the
 * allowance, a name that shares a distinctive word, or a related name (a product, a parent, a separate firm) that the
 * data documents. `best()` is the short form: the matched item, or undefined for ambiguous and none.
 */

/** How a match was made: exact name, GitHub organisation slug, documented alias (or former name), confident typo. */
export type MatchHow = 'exact' | 'slug' | 'alias' | 'typo';

/** What an item answers to. `related` names are other entities (a product, a parent, a separate firm): never a match. */
export interface NameForms {
  name: string;
  slug?: string | undefined;
  aliases?: readonly string[] | undefined;
  formerNames?: readonly string[] | undefined;
  related?: readonly { name: string; relation: string }[] | undefined;
}

export interface Match<T> {
  item: T;
  /** 1 for an exact name, slug or alias; below 1 for a typo (0.1 less per edit, 0.05 less per generic word left out). */
  score: number;
}

export interface MatchResolution<T> extends Match<T> {
  status: 'match';
  how: MatchHow;
  /** The name form that matched (the display name, the slug, or the alias as documented). */
  matched: string;
  /** Edits of a typo match (0 otherwise). */
  edits: number;
  /** Generic words of the entity the query left out (a typo match only). */
  omitted: string[];
  /** Set when the alias is a former name of the entity. */
  formerName?: boolean;
}

export interface Candidate<T> {
  item: T;
  /** The name form that was close. */
  name: string;
  /** Why it is offered: "same name as another entity", "2 edits away (1 allowed)", "product of HashiCorp"… */
  why: string;
}

export interface MissResolution<T> {
  status: 'ambiguous' | 'none';
  candidates: Candidate<T>[];
}

export type Resolution<T> = MatchResolution<T> | MissResolution<T>;

const MAX_CANDIDATES = 5;

/** Why a query that is the first words of a longer name is offered it (and not matched to it). */
export const PART_OF_NAME = 'only the first words of the name, which another company may hold';
/** Why a strict look-up offers a confident typo (and does not match it). */
export const STRICT_NEAR = 'close, but only an exact name, slug or alias resolves here';

export interface ResolveOptions {
  /** Accept confident typos and names that leave out generic words (step 3). Default true; false: strict. */
  typos?: boolean;
  /**
   * Strict only: accept a whole name whose distinctive words are exact and whose generic words are misspelt within
   * the typo allowance ("Beletzen Frieght" for "Beletzen Freight"). Default true; false where a hit is charged.
   */
  misspeltGenerics?: boolean;
}

const LEGAL_SUFFIXES = new Set(
  (
    'inc incorporated corp corporation co company llc llp lp ltd limited plc gmbh mbh ag se sa sas sarl bv nv srl ' +
    'spa pty pte oy ab as kk kg'
  ).split(' '),
);

/**
 * Sector and industry words: never distinctive. A query made of them alone never matches, and an entity's own may be
 * left out of a query ("Galettra" finds "Galettra Base"). "Enterprise" and place names are not here on purpose: they
 * tell entities apart ("Docker Enterprise" is not Docker, "Sequoia Capital India" is not Sequoia Capital).
 */
const GENERIC_WORDS = new Set(
  // the demo generator's sector words
  (
    'health care clinical med learning academy classroom tutor commerce checkout cart storefront logistics freight ' +
    'supply cargo chain ledger protocol labs cloud works suite ops data stream query base robotics motion autonomy ' +
    'machines legal counsel contracts compliance people talent hire payroll homes property spaces build farms ' +
    'harvest agro fields games play studios arcade orbital space aerospace satellite social community circles ' +
    'connect ' +
    // sector names and common industry words
    'healthcare edtech ecommerce infrastructure web3 saas proptech agtech gaming tech technology technologies ' +
    'software systems system solutions services service platform platforms digital network networks analytics ' +
    'security ai ml app apps mobile web internet online computing computer computers devices hardware energy bio ' +
    'biotech therapeutics pharma pharmaceuticals financial finance fintech payments pay bank insurance media ' +
    'studio lab industries industrial international global group holdings holding partners partner capital ' +
    'ventures venture fund funds management investments investment foundation hq dev developer developers open ' +
    'source business microsystems electronics semiconductor semiconductors communications telecom robotic ' +
    'automation intelligence research consulting markets market marketplace enterprises ' +
    // an article names nothing on its own; it is kept in a name ("The Sun") but never tells two names apart
    'the'
  ).split(' '),
);

/** Lower-case, accent-free words of `text` (letters and digits only), every word kept. */
export function nameWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Endings of web domains: a name written as a domain ("brixevik.com") names whoever holds that domain. */
const DOMAIN_ENDINGS = new Set('com io ai net org co app dev tech xyz so sh'.split(' '));
const DOMAIN = /^\s*(?:https?:\/\/)?(?:www\.)?[\p{L}\p{N}-]+\.([a-z]{2,6})\/?\s*$/iu;

/** Is `text` written as a web domain ("Sentry.com", "https://astro.com/")? */
export function isDomain(text: string): boolean {
  const m = DOMAIN.exec(text);
  return m !== null && DOMAIN_ENDINGS.has(m[1]!.toLowerCase());
}

/**
 * The words a name is compared by: folded, trailing legal suffixes dropped (never all of them). A domain keeps its
 * ending ("Acme.co" is a domain, not Acme Co.), and a leading "The" is kept.
 */
export function foldName(text: string): string[] {
  if (isDomain(text)) return nameWords(text.replace(/^\s*(?:https?:\/\/)?(?:www\.)?/i, '').replace(/\/\s*$/, ''));
  const words = nameWords(text);
  let end = words.length;
  while (end > 1 && LEGAL_SUFFIXES.has(words[end - 1]!)) end--;
  return words.slice(0, end);
}

/** The compact form: folded words joined without spaces ("Red Hat, Inc." → "redhat"). */
export function compactName(text: string): string {
  return foldName(text).join('');
}

export function isGenericWord(word: string): boolean {
  return GENERIC_WORDS.has(word) || LEGAL_SUFFIXES.has(word) || DOMAIN_ENDINGS.has(word);
}

/** Edits a typo may make in a word of this length: none up to 3 letters, 1 for 4–8, 2 for 9 or more. */
export function allowedEdits(length: number): number {
  return length <= 3 ? 0 : length <= 8 ? 1 : 2;
}

/** Three rows of the edit-distance matrix, reused by every call (grown for longer words). */
let rows = new Int32Array(3 * 64);

/**
 * Edit distance with adjacent transpositions counting as one edit (the optimal string alignment distance, over UTF-16
 * code units). Written here rather than taken from `damerau-levenshtein`, which computes the same distance (the test
 * compares them) but allocates a matrix of arrays per call: the typo reach of one question calls it for hundreds of
 * candidate words at 100,000 startups, and those matrices were most of what such a question allocated. Three rows of
 * one typed array kept between calls are enough, since a cell reads at most two rows back.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  if (m === 0) return n;
  if (n === 0) return m;
  const width = n + 1;
  if (rows.length < 3 * width) rows = new Int32Array(3 * width);
  for (let j = 0; j <= n; j++) rows[j] = j;
  for (let i = 1; i <= m; i++) {
    const cur = (i % 3) * width;
    const prev = ((i - 1) % 3) * width;
    const prev2 = ((i + 1) % 3) * width;
    rows[cur] = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let min = rows[prev + j]! + 1;
      let t = rows[cur + j - 1]! + 1;
      if (t < min) min = t;
      t = rows[prev + j - 1]! + cost;
      if (t < min) min = t;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        t = rows[prev2 + j - 2]! + cost;
        if (t < min) min = t;
      }
      rows[cur + j] = min;
    }
  }
  return rows[(m % 3) * width + n]!;
}

/** Edits between a query word and an entity word, or Infinity beyond `limit` or when the first letters differ. */
function wordEdits(query: string, word: string, limit: number): number {
  if (query === word) return 0;
  if (query[0] !== word[0] || Math.abs(query.length - word.length) > limit) return Infinity;
  // Levenshtein is an upper bound of the transposition-aware distance and at most twice it: a cheap filter first.
  const lev = distance(query, word);
  if (lev > 2 * limit) return Infinity;
  const edits = lev <= 1 ? lev : editDistance(query, word);
  return edits <= limit ? edits : Infinity;
}

type FormKind = 'name' | 'slug' | 'alias' | 'former';

interface Form {
  item: number;
  kind: FormKind;
  text: string;
  words: string[];
  /** Per word: may a query leave it out? */
  generic: boolean[];
  /** At least one distinctive word: typos allowed. Names of generic words only match exactly. */
  typoable: boolean;
}

interface Related {
  item: number;
  name: string;
  relation: string;
}

interface Near {
  form: Form;
  edits: number;
  omitted: string[];
}

const LEVEL: Record<FormKind, number> = { name: 0, slug: 1, alias: 2, former: 2 };
const HOW: Record<FormKind, MatchHow> = { name: 'exact', slug: 'slug', alias: 'alias', former: 'alias' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Aligns the query words to a form's words in order; unaligned form words must be generic. Least edits, or null.
 * `exactDistinctive`: the form's distinctive words take no edit (a misspelling is allowed in its generic words only).
 */
function align(
  query: readonly string[],
  form: Form,
  slack = 0,
  exactDistinctive = false,
): { edits: number; omitted: string[] } | null {
  const q = query.length;
  const f = form.words.length;
  if (q > f) return null;
  const limit = (j: number) => (exactDistinctive && !form.generic[j] ? 0 : allowedEdits(form.words[j]!.length) + slack);
  // best[i][j]: least edits aligning query[i..] to form[j..]; omitted words tracked along the best path.
  const best: number[][] = Array.from({ length: q + 1 }, () => new Array<number>(f + 1).fill(Infinity));
  best[q]![f] = 0;
  for (let j = f - 1; j >= 0; j--) best[q]![j] = form.generic[j] ? best[q]![j + 1]! : Infinity;
  for (let i = q - 1; i >= 0; i--) {
    for (let j = f - 1; j >= 0; j--) {
      const word = form.words[j]!;
      const edits = wordEdits(query[i]!, word, limit(j));
      let value = edits + best[i + 1]![j + 1]!;
      if (form.generic[j]) value = Math.min(value, best[i]![j + 1]!);
      best[i]![j] = value;
    }
  }
  const total = best[0]![0]!;
  if (!Number.isFinite(total)) return null;
  const omitted: string[] = [];
  let i = 0;
  let j = 0;
  while (j < f) {
    if (i < q) {
      const word = form.words[j]!;
      const edits = wordEdits(query[i]!, word, limit(j));
      if (edits + best[i + 1]![j + 1]! === best[i]![j]) {
        i++;
        j++;
        continue;
      }
    }
    omitted.push(form.words[j]!);
    j++;
  }
  return { edits: total, omitted };
}

/** An anchor word of the typo index: its letters (see lettersOf) and the forms filed under it. */
interface Anchored {
  word: string;
  letters: number;
  forms: Form[];
}

/**
 * The letters of a word as a 32-bit set (by character code modulo 32; characters that share a bit only make the set
 * smaller). A letter one word has and another lacks takes at least one edit to turn one into the other, and one edit
 * (a substitution) removes at most one such letter from each side, so the larger of the two differences is a lower
 * bound of the edit distance, with or without transpositions.
 */
function lettersOf(word: string): number {
  let set = 0;
  for (let i = 0; i < word.length; i++) set |= 1 << (word.charCodeAt(i) & 31);
  return set;
}

/** The number of bits set in a 32-bit word (the classic SWAR count). */
export function bitCount(n: number): number {
  n = n - ((n >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export class NameMatcher<T> {
  private readonly forms: Form[] = [];
  private readonly exact = new Map<string, Form[]>();
  private readonly related = new Map<string, Related[]>();
  /** Typo-able forms by each of their distinctive words. */
  private readonly byWord = new Map<string, Form[]>();
  /**
   * The typo index: each typo-able form once, under its anchor (its distinctive word shared by the fewest forms), by
   * `${first letter}${length}` of the anchor, then by the anchor. A typo must reach every distinctive word of a form
   * (align leaves out generic words only), so reaching its anchor is necessary, and a look-up that reaches a common
   * word ("Health", "Spaces") does not examine the thousands of names that share it.
   */
  private readonly buckets = new Map<string, Anchored[]>();
  private readonly displayNames: string[];
  private readonly cache = new LRUCache<string, Resolution<number>>({ max: 10_000 });
  /** Per query word and slack, the typo index's lists within its reach (see `reachable`). */
  private readonly reach = new LRUCache<string, Form[][]>({ max: 20_000 });

  /**
   * `names(item)` lists what an item answers to: a NameForms object, or a list whose first entry is the display name
   * and the rest aliases. `adding` is how many of the items (the first ones) are added now: all of them, but for
   * `NameMatcher.build`, which adds them in steps.
   */
  constructor(
    private readonly items: readonly T[],
    private readonly names: (item: T) => NameForms | readonly string[],
    adding = items.length,
  ) {
    this.displayNames = [];
    for (let index = 0; index < adding; index++) this.addItem(index);
    if (adding === items.length) {
      const steps = this.indexTypos();
      while (!steps.next().done);
    }
  }

  /**
   * The matcher built in steps (a generator that yields every `chunk` items, as the per-period warm-up runs them):
   * at 100,000 names it is about a second of work, which must not be one turn of a serving process's event loop.
   */
  static *build<T>(
    items: readonly T[],
    names: (item: T) => NameForms | readonly string[],
    chunk = 2000,
  ): Generator<void, NameMatcher<T>, void> {
    const matcher = new NameMatcher(items, names, 0);
    for (let index = 0; index < items.length; index++) {
      matcher.addItem(index);
      if ((index + 1) % chunk === 0) yield;
    }
    yield* matcher.indexTypos(chunk);
    return matcher;
  }

  /** Builds the typo index (`buckets`) from the forms added, yielding every `chunk` forms. */
  private *indexTypos(chunk = Infinity): Generator<void, void, void> {
    this.buckets.clear();
    this.reach.clear();
    // Anchors are grouped by bucket and word here, then each bucket is kept as a list: a look-up walks a bucket's
    // anchors, and walking a map's entries allocated an entry per anchor (hundreds of KB per word at 100,000 names).
    const grouped = new Map<string, Map<string, Anchored>>();
    let n = 0;
    for (const form of this.forms) {
      if (++n % chunk === 0) yield;
      if (!form.typoable) continue;
      let anchor: string | undefined;
      let fewest = Infinity;
      for (const [i, word] of form.words.entries()) {
        if (form.generic[i]) continue;
        const count = this.byWord.get(word)!.length;
        if (count < fewest) [anchor, fewest] = [word, count];
      }
      const key = `${anchor![0]}${anchor!.length}`;
      let bucket = grouped.get(key);
      if (bucket === undefined) grouped.set(key, (bucket = new Map()));
      const anchored = bucket.get(anchor!);
      if (anchored === undefined) bucket.set(anchor!, { word: anchor!, letters: lettersOf(anchor!), forms: [form] });
      else anchored.forms.push(form);
    }
    for (const [key, bucket] of grouped) this.buckets.set(key, [...bucket.values()]);
  }

  private addItem(index: number): void {
    const given = this.names(this.items[index]!);
    const forms: NameForms = Array.isArray(given)
      ? { name: (given as readonly string[])[0] ?? '', aliases: (given as readonly string[]).slice(1) }
      : (given as NameForms);
    this.displayNames.push(forms.name);
    this.addForm(index, 'name', forms.name);
    if (forms.slug) this.addForm(index, 'slug', forms.slug);
    for (const alias of forms.aliases ?? []) this.addForm(index, 'alias', alias);
    for (const former of forms.formerNames ?? []) this.addForm(index, 'former', former);
    for (const { name, relation } of forms.related ?? []) {
      const key = compactName(name);
      if (!key) continue;
      const list = this.related.get(key) ?? [];
      list.push({ item: index, name, relation });
      this.related.set(key, list);
    }
  }

  private addForm(item: number, kind: FormKind, text: string): void {
    const words = foldName(text);
    if (words.length === 0) return;
    const generic = words.map(isGenericWord);
    const form: Form = { item, kind, text, words, generic, typoable: kind !== 'slug' && generic.includes(false) };
    this.forms.push(form);
    const key = words.join('');
    const list = this.exact.get(key);
    if (list) list.push(form);
    else this.exact.set(key, [form]);
    if (!form.typoable) return;
    for (const [i, word] of words.entries()) {
      if (generic[i]) continue;
      const forms = this.byWord.get(word);
      if (forms === undefined) this.byWord.set(word, [form]);
      else forms.push(form);
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** The matched item and its score, or undefined when the query is ambiguous or matches nothing. */
  best(query: string, options?: ResolveOptions): Match<T> | undefined {
    const resolution = this.resolve(query, options);
    return resolution.status === 'match' ? { item: resolution.item, score: resolution.score } : undefined;
  }

  /** The full answer: a match and how it was made, or ambiguous / none with "did you mean" candidates. */
  resolve(query: string, options: ResolveOptions = {}): Resolution<T> {
    const typos = options.typos ?? true;
    const generics = !typos && (options.misspeltGenerics ?? true);
    const words = foldName(query);
    const key = `${typos ? '~' : generics ? '-' : '='}${words.join(' ')}`;
    let found = this.cache.get(key);
    if (found === undefined) {
      found = this.search(words, typos, generics);
      this.cache.set(key, found);
    }
    if (found.status === 'match') return { ...found, omitted: [...found.omitted], item: this.items[found.item]! };
    return {
      status: found.status,
      candidates: found.candidates.map((c) => ({ ...c, item: this.items[c.item]! })),
    };
  }

  private search(words: string[], typos: boolean, generics = false): Resolution<number> {
    if (words.length === 0) return { status: 'none', candidates: [] };
    const compact = words.join('');

    // 1–2. Exact name, slug, alias or former name: the best level wins; two items at it are ambiguous.
    const exact = this.exact.get(compact);
    if (exact) {
      const level = Math.min(...exact.map((f) => LEVEL[f.kind]));
      const top = unique(exact.filter((f) => LEVEL[f.kind] === level));
      if (top.length === 1) {
        const form = top[0]!;
        return {
          status: 'match',
          item: form.item,
          score: 1,
          how: HOW[form.kind],
          matched: form.text,
          edits: 0,
          omitted: [],
          ...(form.kind === 'former' ? { formerName: true } : {}),
        };
      }
      return {
        status: 'ambiguous',
        candidates: top.slice(0, MAX_CANDIDATES).map((form) => ({
          item: form.item,
          name: form.text,
          why: `${KIND_LABEL[form.kind]} of ${top.length} entities`,
        })),
      };
    }

    // A documented related name (a product, a parent, a separate firm) is another entity: never read as a typo.
    const related = this.relatedCandidates(compact);
    if (related.length > 0 || words.every(isGenericWord)) return { status: 'none', candidates: related };

    // 3. Confident typos of every word of a name. The first words of a name alone are a candidate only: they are
    // often another company's whole name ("Novonix" is not "Novonix Commerce").
    const near = this.near(words, 0);
    const whole = near.filter((n) => n.omitted.length === 0);
    if (whole.length === 0 && near.length > 0) {
      // The first words of several names equally: ambiguous, each offered; of one name: none, it offered.
      const least = Math.min(...near.map((n) => n.edits));
      const top = uniqueNear(near.filter((n) => n.edits === least));
      return {
        status: top.length > 1 ? 'ambiguous' : 'none',
        candidates: uniqueNear(near)
          .slice(0, MAX_CANDIDATES)
          .map(({ form, edits, omitted }) => ({
            item: form.item,
            name: form.text,
            why: describeNear(edits, omitted, PART_OF_NAME),
          })),
      };
    }
    if (generics && whole.length > 0) {
      // Strict, a misspelt generic word: the closest whole name, alone at its distance, every distinctive word of it
      // typed exactly ("Beletzen Frieght"). A typo in a distinctive word is another name ("Linde" is not Linode).
      const least = Math.min(...whole.map((n) => n.edits));
      const closest = whole.filter((n) => n.edits === least);
      const only =
        uniqueNear(closest).length === 1
          ? closest.find((n) => align(words, n.form, 0, true)?.edits === least)
          : undefined;
      if (only) {
        return {
          status: 'match',
          item: only.form.item,
          score: Math.round((1 - 0.1 * only.edits) * 1000) / 1000,
          how: 'typo',
          matched: only.form.text,
          edits: only.edits,
          omitted: [],
          ...(only.form.kind === 'former' ? { formerName: true } : {}),
        };
      }
    }
    if (near.length > 0 && !typos) {
      // Strict: a near name is someone the query may mean, never the answer.
      return {
        status: 'none',
        candidates: uniqueNear(near)
          .slice(0, MAX_CANDIDATES)
          .map(({ form, edits, omitted }) => ({
            item: form.item,
            name: form.text,
            why: describeNear(edits, omitted, STRICT_NEAR),
          })),
      };
    }
    if (whole.length > 0) {
      const least = Math.min(...whole.map((n) => n.edits));
      const top = uniqueNear(whole.filter((n) => n.edits === least));
      if (top.length === 1) {
        const { form, edits, omitted } = top[0]!;
        return {
          status: 'match',
          item: form.item,
          score: Math.round((1 - 0.1 * edits - 0.05 * omitted.length) * 1000) / 1000,
          how: 'typo',
          matched: form.text,
          edits,
          omitted,
          ...(form.kind === 'former' ? { formerName: true } : {}),
        };
      }
      return {
        status: 'ambiguous',
        candidates: top.slice(0, MAX_CANDIDATES).map(({ form, edits, omitted }) => ({
          item: form.item,
          name: form.text,
          why: describeNear(
            edits,
            omitted,
            `as close as ${top.length - 1} other ${top.length === 2 ? 'entity' : 'entities'}`,
          ),
        })),
      };
    }

    // None: a name a domain spells, related names, then names one edit beyond the allowance, then shared distinctive
    // words.
    const candidates: Candidate<number>[] = [];
    const offered = new Set<number>();
    const offer = (item: number, name: string, why: string) => {
      if (offered.has(item) || candidates.length >= MAX_CANDIDATES) return;
      offered.add(item);
      candidates.push({ item, name, why });
    };
    if (words.length > 1 && DOMAIN_ENDINGS.has(words[words.length - 1]!)) {
      for (const form of this.exact.get(words.slice(0, -1).join('')) ?? []) {
        offer(form.item, form.text, 'the name a domain spells: only a recorded domain resolves to its holder');
      }
    }
    for (const { form, edits, omitted } of this.near(words, 1).sort(byCloseness)) {
      offer(form.item, form.text, describeNear(edits, omitted, 'too far for a confident typo'));
    }
    for (const { form, word } of this.sharedWords(words, MAX_CANDIDATES - candidates.length, offered)) {
      offer(form.item, form.text, `shares the word "${word}" but the rest of the name differs`);
    }
    return { status: 'none', candidates };
  }

  private relatedCandidates(compact: string): Candidate<number>[] {
    return (this.related.get(compact) ?? []).slice(0, MAX_CANDIDATES).map((r) => ({
      item: r.item,
      name: this.displayNames[r.item]!,
      why: `${r.name}: ${r.relation}`,
    }));
  }

  /** Forms the query aligns to with at most the allowed edits per word (plus `slack`). */
  private near(words: string[], slack: number): Near[] {
    // Each form is filed under one anchor, so a form reached twice is in a list reached twice: the lists are what is
    // remembered (a set of every form reached grew with the lists, thousands of forms at 100,000 startups).
    const seen = new Set<Form[]>();
    const found: Near[] = [];
    for (const word of words) {
      for (const forms of this.reachable(word, slack)) {
        if (seen.has(forms)) continue;
        seen.add(forms);
        for (const form of forms) {
          if (words.length > form.words.length) continue;
          const aligned = align(words, form, slack);
          if (!aligned) continue;
          // Every distinctive word of the entity is in the query (align only skips generic ones); a query of the
          // entity's generic words alone is excluded because a distinctive word had to be aligned.
          if (slack > 0 && align(words, form) !== null) continue;
          found.push({ form, ...aligned });
        }
      }
    }
    return found;
  }

  /**
   * The forms filed under anchor words within reach of a query word (the cheap gate, one edit check per anchor),
   * kept per word: a question repeats the same words ("engineering", "signal") across look-ups, and at 100,000
   * startups a word's buckets hold thousands of anchors.
   */
  private reachable(word: string, slack: number): Form[][] {
    const key = `${slack}:${word}`;
    let lists = this.reach.get(key);
    if (lists !== undefined) return lists;
    lists = [];
    const limit = 2 + slack;
    const letters = lettersOf(word);
    for (let length = Math.max(1, word.length - limit); length <= word.length + limit; length++) {
      for (const { word: anchor, letters: theirs, forms } of this.buckets.get(`${word[0]}${length}`) ?? []) {
        const allowed = allowedEdits(anchor.length) + slack;
        // Each letter one word has and the other lacks takes an edit: far more anchors fail this than pass it.
        if (bitCount(letters & ~theirs) > allowed || bitCount(theirs & ~letters) > allowed) continue;
        if (wordEdits(word, anchor, allowed) !== Infinity) lists.push(forms);
      }
    }
    this.reach.set(key, lists);
    return lists;
  }

  /**
   * Forms with a distinctive word equal to a query word, shortest names first, then by text (ties in the order found),
   * one per item and none of the items in `exclude`: the first `limit` of them. A word such as "Clinical" is shared
   * by thousands of names at 100,000 startups, and only a few are offered.
   */
  private sharedWords(words: string[], limit: number, exclude: ReadonlySet<number>): { form: Form; word: string }[] {
    const top: { form: Form; word: string }[] = [];
    if (limit <= 0) return top;
    const order = (a: Form, b: Form) => a.words.length - b.words.length || a.text.localeCompare(b.text);
    // A form is listed under each of its distinctive words, so one met before was listed under a query word already
    // read: that is checked on the form's few words instead of a set of every form met (thousands for a common word).
    const read: string[] = [];
    for (const word of words) {
      if (isGenericWord(word) || word.length < 3 || read.includes(word)) continue;
      for (const form of this.byWord.get(word) ?? []) {
        if (exclude.has(form.item) || read.some((earlier) => form.words.includes(earlier))) continue;
        const same = top.findIndex((t) => t.form.item === form.item);
        if (same >= 0) {
          if (order(form, top[same]!.form) >= 0) continue;
          top.splice(same, 1);
        } else if (top.length === limit && order(form, top[limit - 1]!.form) >= 0) continue;
        // After every equal one: the order a stable sort of all of them gives.
        let at = top.length;
        while (at > 0 && order(form, top[at - 1]!.form) < 0) at--;
        top.splice(at, 0, { form, word });
        if (top.length > limit) top.pop();
      }
      read.push(word);
    }
    return top;
  }
}

const KIND_LABEL: Record<FormKind, string> = {
  name: 'the name',
  slug: 'the organisation slug',
  alias: 'an alias',
  former: 'a former name',
};

function describeNear(edits: number, omitted: readonly string[], tail: string): string {
  const parts = [edits > 0 ? plural(edits, 'letter edit') : 'no letter edit'];
  if (omitted.length) parts.push(`without "${omitted.join(' ')}"`);
  return `${parts.join(', ')}: ${tail}`;
}

function byCloseness(a: Near, b: Near): number {
  return a.edits - b.edits || a.omitted.length - b.omitted.length || a.form.text.localeCompare(b.form.text);
}

/** One form per item, in order. */
function unique(forms: Form[]): Form[] {
  const seen = new Set<number>();
  return forms.filter((f) => !seen.has(f.item) && seen.add(f.item));
}

/** The closest near match per item, items in a stable order. */
function uniqueNear(list: Near[]): Near[] {
  const byItem = new Map<number, Near>();
  for (const n of [...list].sort(byCloseness)) if (!byItem.has(n.form.item)) byItem.set(n.form.item, n);
  return [...byItem.values()];
}
