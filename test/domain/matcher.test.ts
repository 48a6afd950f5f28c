import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import damerauLevenshtein from 'damerau-levenshtein';
import fc from 'fast-check';
import { allowedEdits, bitCount, compactName, editDistance, foldName, NameMatcher } from '../../src/domain/matcher.js';

const companies = [
  { name: 'Acme Robotics', slug: 'acme-robotics' },
  { name: 'Acme Health', slug: 'acmehealth' },
  { name: 'Orbital Dynamics Labs', slug: 'orbdyn' },
  { name: 'Data Labs', slug: 'datalabs-io' },
  { name: 'Zenith Data', slug: 'zenith-hq' },
  { name: 'Söderberg AI', slug: 'soderberg' },
  { name: 'Galettra Base', slug: 'galettra-base' },
  { name: 'Kestrel Cloud', slug: 'kestrel-one' },
  { name: 'Kestrel Cloud', slug: 'kestrel-two' },
  {
    name: 'Peak XV Partners',
    formerNames: ['Sequoia Capital India'],
    related: [{ name: 'Sequoia Capital', relation: 'a separate firm' }],
  },
  { name: 'Docker Enterprise', aliases: ['Docker Enterprise platform'] },
  { name: 'Microsoft', aliases: ['Microsoft Corporation', 'MSFT'] },
  { name: 'GitHub' },
  { name: 'Deis' },
  { name: 'Zed Industries' },
];
const matcher = new NameMatcher(companies, (c) => c);
const resolve = (q: string) => matcher.resolve(q);
const matched = (q: string) => {
  const r = resolve(q);
  return r.status === 'match' ? r.item.name : undefined;
};

describe('name folding', () => {
  test('case, accents and punctuation fold away', () => {
    assert.deepEqual(foldName('  Söderberg-A.I. '), ['soderberg', 'a', 'i']);
    assert.equal(compactName('Söderberg AI'), 'soderbergai');
  });

  test('trailing legal suffixes are dropped; a leading "The" and a domain ending are kept', () => {
    assert.deepEqual(foldName('The Acme Robotics Company, Inc.'), ['the', 'acme', 'robotics']);
    assert.deepEqual(foldName('Red Hat, Inc.'), ['red', 'hat']);
    assert.deepEqual(foldName('Sentry.com'), ['sentry', 'com']);
    assert.deepEqual(foldName('https://www.Acme.co/'), ['acme', 'co']);
    assert.deepEqual(foldName('Acme Co.'), ['acme']);
  });

  test('"The" before a held name, or the name written as a domain, is another name: a candidate, never the match', () => {
    for (const q of ['The GitHub', 'GitHub.io', 'Microsoft.com']) {
      const r = matcher.resolve(q, { typos: false });
      assert.equal(r.status, 'none', q);
      assert.ok(r.status === 'none' && r.candidates.some((c) => c.item.name === q.replace(/^The |\.\w+$/g, '')), q);
    }
  });

  test('a name made only of legal suffixes keeps its first word, which never matches on its own', () => {
    assert.deepEqual(foldName('Co. Inc.'), ['co']);
    assert.equal(matcher.resolve('Co. Inc.').status, 'none');
  });

  test('allowed edits grow with the word: none up to 3 letters, 1 for 4–8, 2 for 9+', () => {
    assert.deepEqual([3, 4, 8, 9, 12].map(allowedEdits), [0, 1, 1, 2, 2]);
  });

  test('a transposition of neighbours is one edit', () => {
    assert.equal(editDistance('acme', 'amce'), 1);
    assert.equal(editDistance('nvida', 'nvidia'), 1);
  });
});

describe('edit distance', () => {
  test('is the distance damerau-levenshtein computes, for words of every length and alphabet', () => {
    const same = (a: string, b: string) => editDistance(a, b) === damerauLevenshtein(a, b).steps;
    // A small alphabet makes repeated letters and adjacent swaps common.
    const small = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 12 });
    fc.assert(fc.property(small, small, same), { numRuns: 10_000 });
    // A word against itself with two neighbours swapped.
    fc.assert(
      fc.property(small, fc.nat(), (a, at) => {
        const i = a.length > 1 ? at % (a.length - 1) : 0;
        return same(a, a.slice(0, i) + a.slice(i + 1, i + 2) + a.slice(i, i + 1) + a.slice(i + 2));
      }),
      { numRuns: 5_000 },
    );
    // Any text, accents and characters outside the Basic Multilingual Plane included.
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 10 }), same),
    );
  });
});

describe('name matcher: matches', () => {
  test('an exact name in any case or spacing matches with how "exact" and score 1', () => {
    for (const q of ['acme robotics', 'ACME ROBOTICS', 'AcmeRobotics', 'acme-robotics!!', 'Acme Robotics Inc.']) {
      const r = resolve(q);
      assert.equal(r.status, 'match', q);
      assert.equal(r.status === 'match' && r.item.name, 'Acme Robotics', q);
      assert.equal(r.status === 'match' && r.how, 'exact', q);
    }
    assert.equal(matcher.best('Acme Health')?.score, 1);
  });

  test('the organisation slug matches with how "slug"', () => {
    const r = resolve('orbdyn');
    assert.equal(r.status === 'match' && r.item.name, 'Orbital Dynamics Labs');
    assert.equal(r.status === 'match' && r.how, 'slug');
  });

  test('a documented alias matches with how "alias"', () => {
    const r = resolve('MSFT');
    assert.equal(r.status === 'match' && r.item.name, 'Microsoft');
    assert.equal(r.status === 'match' && r.how, 'alias');
  });

  test('a former name matches as an alias and is flagged', () => {
    const r = resolve('Sequoia Capital India');
    assert.equal(r.status, 'match');
    assert.equal(r.status === 'match' && r.item.name, 'Peak XV Partners');
    assert.equal(r.status === 'match' && r.formerName, true);
  });

  test('one edit in a word of 4–8 letters is a typo match', () => {
    const r = resolve('acme helth');
    assert.equal(r.status === 'match' && r.item.name, 'Acme Health');
    assert.equal(r.status === 'match' && r.how, 'typo');
    assert.equal(r.status === 'match' && r.edits, 1);
  });

  test('a transposed pair of letters is one edit', () => {
    assert.equal(matched('Microsfot'), 'Microsoft');
  });

  test('two edits in a word of 9+ letters are a typo match', () => {
    assert.equal(matched('Orbital Dynamcs Lab'), 'Orbital Dynamics Labs');
    assert.equal(matched('Galetra Base'), 'Galettra Base');
  });

  test('the first words of a name alone are a candidate, never the match, even on the free lookup', () => {
    const r = resolve('Galettra');
    assert.equal(r.status, 'none');
    assert.deepEqual(r.status === 'none' && r.candidates.map((c) => c.item.name), ['Galettra Base']);
    assert.equal(matched('Peak XV'), undefined);
  });

  test('a typo scores below an exact name', () => {
    const typo = matcher.best('acme helth')!.score;
    assert.ok(typo > 0 && typo < matcher.best('Acme Health')!.score);
  });

  test('best() returns the item and score of a match', () => {
    assert.deepEqual(matcher.best('Deis'), { item: companies[13], score: 1 });
  });
});

describe('name matcher: no substitution', () => {
  test('a different company with a similar name is not a match', () => {
    for (const q of ['GitLab', 'Redis', 'Docker', 'Zoom', 'Sequoia Capital', 'Macrohard', 'Zen'])
      assert.equal(resolve(q).status !== 'match', true, q);
  });

  test('generic words alone never match', () => {
    for (const q of ['data', 'cloud', 'labs', 'health', 'systems', 'the company', 'Data Cloud'])
      assert.equal(resolve(q).status, 'none', q);
  });

  test('a name of 3 letters or fewer tolerates no edit', () => {
    assert.equal(resolve('Zad Industries').status, 'none');
  });

  test('the first letter is never an edit', () => {
    assert.equal(resolve('Ecme Robotics').status, 'none');
  });

  test('one edit in a word of 4–8 letters is the limit', () => {
    assert.equal(resolve('Gitbub').status === 'match', true);
    assert.equal(resolve('Gitbubb').status, 'none');
  });

  test('two startups with the same name are ambiguous, each offered as a candidate', () => {
    const r = resolve('Kestrel Cloud');
    assert.equal(r.status, 'ambiguous');
    assert.deepEqual(r.status === 'ambiguous' && r.candidates.map((c) => c.item.slug), ['kestrel-one', 'kestrel-two']);
    assert.equal(matcher.best('Kestrel Cloud'), undefined);
  });

  test('a short name shared by two entities is ambiguous', () => {
    const r = resolve('Acme');
    assert.equal(r.status, 'ambiguous');
    assert.deepEqual(r.status === 'ambiguous' && r.candidates.map((c) => c.item.name).sort(), [
      'Acme Health',
      'Acme Robotics',
    ]);
  });

  test('their slugs still tell them apart', () => {
    assert.equal(resolve('kestrel-two').status === 'match' && resolve('kestrel-two').status, 'match');
  });

  test('a near miss is offered as a candidate with the reason', () => {
    const r = resolve('GitLab');
    assert.equal(r.status, 'none');
    assert.equal(r.status === 'none' && r.candidates[0]?.item.name, 'GitHub');
    assert.match(r.status === 'none' ? r.candidates[0]!.why : '', /2 letter edits/);
  });

  test('a related name is offered as a candidate with its relation, never matched', () => {
    const r = resolve('Sequoia Capital');
    assert.equal(r.status, 'none');
    assert.equal(r.status === 'none' && r.candidates[0]?.item.name, 'Peak XV Partners');
    assert.match(r.status === 'none' ? r.candidates[0]!.why : '', /separate firm/);
  });

  test('a shared distinctive word is offered as a candidate, never matched', () => {
    const r = resolve('Docker');
    assert.equal(r.status, 'none');
    assert.equal(r.status === 'none' && r.candidates[0]?.item.name, 'Docker Enterprise');
  });

  test('a query with no letters or digits is none without candidates', () => {
    for (const q of ['', '   ', '!!!', '---', '🙂'])
      assert.deepEqual(resolve(q), { status: 'none', candidates: [] }, q);
  });

  test('an unrelated query is none', () => {
    assert.equal(matcher.best('quantum bakery'), undefined);
    assert.equal(matcher.best('x'), undefined);
  });

  test('a list of names is read as the display name followed by aliases', () => {
    const list = new NameMatcher([{ n: 'Acme' }], () => ['Acme Widgets', 'Widgetco']);
    const r = list.resolve('widgetco');
    assert.equal(r.status === 'match' && r.how, 'alias');
  });
});

describe('name matcher: strict look-ups', () => {
  const strict = (q: string, options = {}) => matcher.resolve(q, { typos: false, ...options });

  test('a misspelt generic word after the exact distinctive words is the name, with how "typo"', () => {
    for (const [q, name] of [
      ['acme helth', 'Acme Health'],
      ['Zenith Dta', 'Zenith Data'],
      ['Orbital Dynamics Lbs', 'Orbital Dynamics Labs'],
    ] as const) {
      const r = strict(q);
      assert.equal(r.status === 'match' && r.item.name, name, q);
      assert.equal(r.status === 'match' && r.how, 'typo', q);
      assert.equal(r.status === 'match' && r.edits, 1, q);
    }
  });

  test('a misspelt distinctive word is a candidate, never the match', () => {
    for (const [q, name] of [
      ['Microsfot', 'Microsoft'],
      ['Galetra Base', 'Galettra Base'],
      ['Acne Health', 'Acme Health'],
      ['Zenth Dta', 'Zenith Data'],
    ] as const) {
      const r = strict(q);
      assert.equal(r.status, 'none', q);
      assert.ok(r.status === 'none' && r.candidates.some((c) => c.item.name === name), q);
    }
  });

  test('without misspelt generic words (where a hit is charged) a misspelt generic word is a candidate only', () => {
    const r = strict('acme helth', { misspeltGenerics: false });
    assert.equal(r.status, 'none');
    assert.ok(r.status === 'none' && r.candidates.some((c) => c.item.name === 'Acme Health'));
  });

  test('the first words of a name are a candidate, never the match', () => {
    const r = strict('Galettra');
    assert.equal(r.status, 'none');
    assert.deepEqual(r.status === 'none' && r.candidates.map((c) => c.item.name), ['Galettra Base']);
  });

  test('a misspelt generic word as close to two names is no match, both offered', () => {
    const two = new NameMatcher([{ name: 'Nimbora Cargo' }, { name: 'Nimbora Cart' }], (c) => c);
    const r = two.resolve('nimbora carg', { typos: false });
    assert.notEqual(r.status, 'match');
    assert.deepEqual(r.status !== 'match' && r.candidates.map((c) => c.item.name).sort(), [
      'Nimbora Cargo',
      'Nimbora Cart',
    ]);
  });

  test('a second word that a longer word only begins with, or that begins a longer one, is another name', () => {
    const held = new NameMatcher([{ name: 'Tavenzen Cloud' }, { name: 'Orvella Cloudflare' }], (c) => c);
    for (const q of ['Tavenzen Cloudflare', 'Orvella Cloud'])
      for (const typos of [true, false]) assert.notEqual(held.resolve(q, { typos }).status, 'match', `${q} ${typos}`);
  });
});

describe('NameMatcher.build (in steps)', () => {
  test('yields between chunks of names and resolves every query as the matcher built at once does', () => {
    const at = new NameMatcher(companies, (c) => c);
    const steps = NameMatcher.build(companies, (c) => c, 3);
    let yields = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yields++;
    // Every 3 names added, then every 3 names' forms indexed for typos.
    assert.ok(yields >= 2 * Math.floor(companies.length / 3), `${yields} yields`);
    const inSteps = next.value;
    for (const query of ['acme robotics', 'orbdyn', 'Sequoia Capital India', 'Kestrel Cloud', 'Zenth Data', 'nobody']) {
      assert.deepEqual(inSteps.resolve(query), at.resolve(query), query);
    }
  });
});

describe('typos among many names sharing a word', () => {
  // 3,000 names ending in the same word, and one whose first word is rare: the typo index files each name under
  // its rarest distinctive word, and a typo in either word must still find it.
  const many = [
    ...Array.from({ length: 3000 }, (_, i) => ({ name: `Zorb${i.toString(36)}x Health` })),
    { name: 'Vexavikgo Health' },
  ];
  const crowd = new NameMatcher(many, (c) => c);
  const name = (q: string) => {
    const r = crowd.resolve(q);
    return r.status === 'match' ? r.item.name : r.status;
  };

  test('a typo in the rare word finds the name', () => {
    assert.equal(name('Vexavkgo Health'), 'Vexavikgo Health');
  });

  test('two neighbours swapped, or a letter the name lacks, is still one edit', () => {
    assert.equal(name('Vexaivkgo Health'), 'Vexavikgo Health');
    assert.equal(name('Vexavikzo Health'), 'Vexavikgo Health');
    assert.equal(name('Vexavikgoqq Health'), 'Vexavikgo Health', 'two letters added to a nine-letter word: two edits');
    assert.equal(name('Vexavikgoqqq Health'), 'none', 'three are too many');
  });

  test('a typo in the shared word finds the name', () => {
    assert.equal(name('Vexavikgo Healh'), 'Vexavikgo Health');
  });

  test('the shared word alone, or with a typo, names nobody', () => {
    assert.equal(name('Health'), 'none');
    assert.equal(name('Healht'), 'none');
  });
});

describe('"did you mean" for a word many names share', () => {
  const names = [
    ...Array.from({ length: 500 }, (_, i) => ({ name: `Zq${i.toString(36)}x Kestrel` })),
    { name: 'Mid Kestrel' },
    { name: 'Long Name Kestrel' },
    { name: 'Aab Kestrel', aliases: ['Aab Kestrel Group'] },
    { name: 'Bee Kestrel' },
  ];
  const shared = new NameMatcher(names, (c) => c);

  test('offers the shortest names with the word, in text order, one per company, at most five', () => {
    const r = shared.resolve('Qqqqqq Kestrel');
    assert.equal(r.status, 'none');
    const offered = r.status === 'none' ? r.candidates.map((c) => c.name) : [];
    assert.deepEqual(offered, ['Aab Kestrel', 'Bee Kestrel', 'Mid Kestrel', 'Zq0x Kestrel', 'Zq10x Kestrel']);
    assert.ok(r.status === 'none' && r.candidates.every((c) => c.why.startsWith('shares the word "kestrel"')));
  });
});

describe('bitCount', () => {
  test('bitCount counts the set bits of any 32-bit word', () => {
    const naive = (word: number) => [...(word >>> 0).toString(2)].filter((bit) => bit === '1').length;
    assert.equal(bitCount(0xffffffff), 32);
    assert.equal(bitCount(0x80000000 | 0), 1);
    fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), (word) => bitCount(word) === naive(word)));
  });
});
