import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evidenceDetails } from '../../src/domain/evidence-links.js';
import { evidenceDetailsSection, repositoriesTable } from '../../src/web/evidence-details.js';
import type { EvidenceDetails } from '../../src/domain/evidence-links.js';

const person = (login: string | null, kind: 'new' | 'returning', regular: boolean) => ({
  login,
  kind,
  regular,
  firstCommit: '2026-03-02',
  commits: regular ? 9 : 1,
  activeDays: regular ? 4 : 1,
  lastSeenBefore: kind === 'returning' ? '2025-11-20' : null,
});

/** The section's HTML with its whitespace folded, as a reader sees the text. */
const render = (d: EvidenceDetails) => evidenceDetailsSection(d).toString().replace(/\s+/g, ' ').trim();

const details = (evidence: Record<string, unknown>) => evidenceDetails('https://github.com/acme', { evidence });

describe("the startup page's evidence details", () => {
  test('a week that recorded nothing behind its label renders nothing', () => {
    assert.equal(render(details({})), '');
  });

  test('new regulars, one-off contributors and returning people are listed apart, by public login with a link', () => {
    const out = render(
      details({
        people: [person('ada', 'new', true), person('bob', 'new', false), person('cy', 'returning', false)],
      }),
    );
    const section = (title: string) => out.slice(out.indexOf(title), out.indexOf('</ul>', out.indexOf(title)));
    assert.match(section('New people committing repeatedly'), /<a href="https:\/\/github.com\/ada"[^>]*>ada<\/a>/);
    assert.match(
      section('One-off contributions'),
      />bob<\/a>: first commit of the window 2026-03-02, 1 commit on 1 day/,
    );
    assert.match(section('Returning contributors'), />cy<\/a>.*last seen before on 2025-11-20/s);
  });

  test("new people from outside the organisation's addresses are listed as outside help, not as new regulars", () => {
    const out = render(
      details({
        people: [
          { ...person('ada', 'new', true), address: 'organisation' },
          { ...person('eve', 'new', true), address: 'outside' },
        ],
      }),
    );
    const section = (title: string) => out.slice(out.indexOf(title), out.indexOf('</ul>', out.indexOf(title)));
    assert.match(
      section('New people committing repeatedly'),
      />ada<\/a>.*from the organisation&#39;s own e-mail domain/s,
    );
    assert.doesNotMatch(section('New people committing repeatedly'), /eve/);
    assert.match(section('Outside help'), />eve<\/a>/);
  });

  test('an author without a linked account is counted, never named', () => {
    const out = render(details({ people: [person(null, 'new', true)] }));
    assert.match(out, /an author without a linked GitHub account/);
    assert.doesNotMatch(out, /@/);
  });

  test('releases and tags link to GitHub, and a long list is cut at twelve with the rest counted', () => {
    const deployEvents = Array.from({ length: 15 }, (_, i) => ({
      repo: 'api',
      kind: 'tag',
      name: `v1.${i}.0`,
      date: '2026-03-03',
    }));
    const out = render(details({ deployEvents }));
    assert.equal(out.match(/<a href="https:\/\/github.com\/acme\/api\/tree\/v1\.\d+\.0"/g)?.length, 12);
    assert.match(out, /and 3 more/);
  });

  test('a hostile tag or path is escaped', () => {
    const out = render(
      details({
        deployEvents: [{ repo: 'api', kind: 'tag', name: '<script>x</script>', date: '2026-03-03' }],
        infraPaths: ['api:deploy/<img src=x>.yaml'],
      }),
    );
    assert.doesNotMatch(out, /<script>|<img/);
  });

  test("the demo's reserved host is named as text, never linked", () => {
    const out = render(
      evidenceDetails('https://github.example/acme', {
        evidence: { people: [person('ada', 'new', true)], newRepoNames: ['infra'] },
      }),
    );
    assert.doesNotMatch(out, /href=/);
    assert.match(out, /ada: first commit/);
    assert.match(out, /<li>infra<\/li>/);
  });

  test('a language move and a replaced framework are said in words', () => {
    const out = render(
      details({
        languageMove: { from: 'JavaScript', to: 'TypeScript', files: 83 },
        frameworkSwaps: [{ kind: 'bundler', from: 'webpack', to: 'vite' }],
      }),
    );
    assert.match(out, /83 files moved from JavaScript to TypeScript/);
    assert.match(out, /bundler: webpack → vite/);
  });
});

describe("the startup page's repositories carrying the work", () => {
  const item = (d: EvidenceDetails) =>
    repositoriesTable(d, 'Week 9, 2026').toString().replace(/\s+/g, ' ').replace(/> </g, '><').trim();

  test('each repository links into the organisation with its commits of the window and of the one before', () => {
    const out = item(details({ activeRepos: [{ repo: 'api', commits: 1234, commitsPrior: 56 }] }));
    assert.match(
      out,
      /<th scope="row"><a href="https:\/\/github.com\/acme\/api"[^>]*>api<\/a><\/th><td class="num">1,234<\/td><td class="num">56<\/td>/,
    );
  });

  test('a repository name is escaped', () => {
    const out = item(details({ activeRepos: [{ repo: '<b>x', commits: 1, commitsPrior: 0 }] }));
    assert.ok(out.includes('&#60;b&#62;x') && !out.includes('<b>x'));
  });

  test("on the demo's reserved host a repository is named as text, not linked", () => {
    const d = evidenceDetails('https://github.example/acme', {
      evidence: { activeRepos: [{ repo: 'api', commits: 3, commitsPrior: 1 }] },
    });
    assert.doesNotMatch(item(d), /<a /);
    assert.match(item(d), /<th scope="row">api<\/th><td class="num">3<\/td><td class="num">1<\/td>/);
  });

  test('a week that recorded no repositories adds nothing', () => {
    assert.equal(item(details({})), '');
  });
});
