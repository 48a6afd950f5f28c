import { parsePeriodSlug } from '../../src/domain/periods.js';
import type { WatchlistEntry } from '../../src/domain/records.js';
import type { FakeCommit, FakeOrg } from '../helpers/fake-github.js';

/**
 * Hand-made activity around week 2026-w10 (Monday 2 March to Sunday 8 March 2026). The windows of that period end
 * at 2026-03-09 00:00 UTC: current window 2026-02-23 … 2026-03-08, prior window 2026-02-09 … 2026-02-22.
 * The collector reads from 2026-03-09 − 35 days = 2026-02-02.
 */
export const PERIOD = parsePeriodSlug('2026-w10');
export const NOW = new Date('2026-03-09T06:00:00Z');
export const COLLECT_FROM = '2026-02-02';

export function commits(count: number, day: string, author: Partial<FakeCommit>, hour = 10): FakeCommit[] {
  return Array.from({ length: count }, (_, i) => ({
    committedDate: `${day}T${String(hour).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
    ...author,
  }));
}

const alice = { login: 'alice', name: 'Alice', email: 'alice@acme.example' };
const bob = { login: 'bob', name: 'Bob', email: 'bob@acme.example' };
/** Not linked to a GitHub account: known only by e-mail. */
const carol = { login: null, name: 'Carol', email: 'carol@acme.example' };
/** How GitHub shows an App bot's commit: no linked user, a no-reply address with the bot's login. */
const dependabot = { login: null, name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' };

/**
 * Acme Labs, by hand:
 * - current window: alice 10 (4 on 02-24, 6 on 03-02), bob 8 (02-25), carol 5 (03-03, new repo) → 23 commits,
 *   3 authors; dependabot 4 (03-02) is a bot and does not count;
 * - prior window: alice 6 (02-10), bob 4 (02-16) → 10 commits, 2 authors;
 * - alice 3 on 02-05 (collected, but before the 28-day look-back) and 2 on 03-09 (after the period) never count;
 * - `web` is a fork, never read; `engine` (Rust, created 2026-02-27) is the only repository of the last 30 days and
 *   brings a language no older repository uses.
 * Expected: commitVelocity14d 23, change (23 − 10) / max(10, 20) = +65%; contributors 3, growth (3 − 2) / max(2, 3) =
 * +33%; newRepos 1; no clear signal (carol is new, but her 5 commits on one day are a one-off, not a regular's; 10
 * prior commits are too few to compare the language mix), so the type is the tie order's placeholder, Framework
 * migration; stage estimated from 3 authors over 28 days = Pre-seed; geography Germany.
 */
export function acmeOrg(): FakeOrg {
  return {
    login: 'acme-labs',
    name: 'Acme Labs',
    description: 'Developer tools',
    location: 'Berlin, Germany',
    blog: 'acme.example',
    repos: [
      {
        name: 'api',
        language: 'TypeScript',
        createdAt: '2024-01-10T09:00:00Z',
        commits: [
          ...commits(4, '2026-02-24', alice),
          ...commits(6, '2026-03-02', alice),
          ...commits(8, '2026-02-25', bob),
          ...commits(4, '2026-03-02', dependabot, 3),
          ...commits(6, '2026-02-10', alice),
          ...commits(4, '2026-02-16', bob),
          ...commits(3, '2026-02-05', alice),
          ...commits(2, '2026-03-09', alice, 2),
          ...commits(7, '2026-01-15', alice),
        ],
      },
      {
        name: 'web',
        fork: true,
        language: 'JavaScript',
        createdAt: '2023-05-01T09:00:00Z',
        commits: commits(9, '2026-02-26', alice),
      },
      {
        name: 'engine',
        language: 'Rust',
        createdAt: '2026-02-27T12:00:00Z',
        commits: commits(5, '2026-03-03', carol),
      },
    ],
  };
}

export const acmeEntry: WatchlistEntry = {
  login: 'acme-labs',
  displayName: 'Acme Labs',
  sector: 'data-infrastructure',
};

/** A quiet organisation: one repository, two people, a few commits in each window. */
export function quietOrg(login = 'quiet-co'): FakeOrg {
  return {
    login,
    name: 'Quiet Co',
    location: 'Toronto, Canada',
    repos: [
      {
        name: 'core',
        language: 'Go',
        createdAt: '2022-03-01T00:00:00Z',
        commits: [
          ...commits(3, '2026-03-04', { login: 'dana' }),
          ...commits(2, '2026-02-12', { login: 'dana' }),
          ...commits(2, '2026-02-13', { login: 'eli' }),
        ],
      },
    ],
  };
}

export function quietEntry(login = 'quiet-co'): WatchlistEntry {
  return { login, displayName: 'Quiet Co', sector: 'healthcare', stage: 'Seed' };
}

const ana = { login: 'ana', email: 'ana@launch.example' };
const ben = { login: 'ben', email: 'ben@launch.example' };
const cy = { login: 'cy', email: 'cy@launch.example' };
const dee = { login: 'dee', email: 'dee@launch.example' };

/**
 * Launch Co, by hand, with the evidence GitHub serves besides commits (week 2026-w10 as above):
 * - `app` (TypeScript 9,000 bytes + Dockerfile 1,000; package.json at the root): ana 12 and ben 10 and cy 4 commits in
 *   the current window, ana 10 and ben 10 in the prior one; releases v1.4.0 (02-25), v1.5.0 (03-02), v1.6.0 (03-05) in
 *   the current window, v1.3.0 (02-12) in the prior one and v1.2.0 (01-20), its first, earlier; lightweight tags
 *   of the same names (a release's tag counts once), and an annotated tag `nightly-0301` (03-01); deployments on 02-26
 *   and 03-05 (a release the same day: one deploy day) and on 02-11;
 * - `infra` (HCL, topic terraform, `main.tf` at the root, created 2025): dee 8 current, 3 prior;
 * - `helm-charts` (Go Template, topics helm and kubernetes, `Chart.yaml`, created 2026-02-26): dee 5 current.
 * Expected evidence: deploy days 5 (02-25, 02-26, 03-01, 03-02, 03-05) against 2 (02-11, 02-12) in the prior window
 * and 0.5 a fortnight in the twelve weeks before (01-20, 02-11, 02-12 over six windows), with 3 releases,
 * 1 other tag and 2 deployments current; 1 new contributor (cy, 4 commits on one day: a one-off, not a regular),
 * none left; new infrastructure repository helm-charts;
 * infrastructure commits 13 against 3; language mix: current TS 23.4 / Dockerfile 2.6 / HCL 8 / Go Template 5 of 39,
 * prior TS 18 / Dockerfile 2 / HCL 3 of 23 → half the sum of share differences = 20 points, towards Go Template;
 * ecosystems: npm only in both windows → 0 points.
 * Scores: deploy min(5/4, +225%/100%) = 1.25 (the usual 0.5 floored at 2); hiring (no new regular) 0; infrastructure max(1/2, min(13/20,
 * +100%/100%)) = 0.65; migration (20 − 15)/(30 − 15) = 0.33. Signal: Deploy frequency spike, strong.
 */
export function launchOrg(): FakeOrg {
  return {
    login: 'launch-co',
    name: 'Launch Co',
    location: 'Lisbon, Portugal',
    repos: [
      {
        name: 'app',
        language: 'TypeScript',
        languages: { TypeScript: 9000, Dockerfile: 1000 },
        topics: ['saas'],
        rootFiles: ['Dockerfile', 'README.md', 'package.json', 'src/'],
        createdAt: '2024-02-01T00:00:00Z',
        commits: [
          ...commits(12, '2026-02-24', ana),
          ...commits(10, '2026-03-03', ben),
          ...commits(4, '2026-03-04', cy),
          ...commits(10, '2026-02-10', ana),
          ...commits(10, '2026-02-16', ben),
        ],
        releases: [
          { tagName: 'v1.2.0', createdAt: '2026-01-20T10:00:00Z' },
          { tagName: 'v1.3.0', createdAt: '2026-02-12T10:00:00Z' },
          { tagName: 'v1.4.0', createdAt: '2026-02-25T10:00:00Z' },
          { tagName: 'v1.5.0', createdAt: '2026-03-02T10:00:00Z' },
          { tagName: 'v1.6.0', createdAt: '2026-03-05T10:00:00Z' },
        ],
        tags: [
          { name: 'v1.2.0', date: '2026-01-20T09:00:00Z' },
          { name: 'v1.3.0', date: '2026-02-12T09:00:00Z' },
          { name: 'v1.4.0', date: '2026-02-25T09:00:00Z' },
          { name: 'v1.5.0', date: '2026-03-02T09:00:00Z' },
          { name: 'v1.6.0', date: '2026-03-05T09:00:00Z' },
          { name: 'nightly-0301', date: '2026-03-01T23:00:00Z', annotated: true },
        ],
        deployments: [
          { createdAt: '2026-02-11T12:00:00Z', environment: 'production' },
          { createdAt: '2026-02-26T12:00:00Z', environment: 'production' },
          { createdAt: '2026-03-05T12:00:00Z', environment: 'production' },
        ],
      },
      {
        name: 'infra',
        language: 'HCL',
        topics: ['terraform'],
        rootFiles: ['main.tf', 'variables.tf'],
        createdAt: '2025-06-01T00:00:00Z',
        commits: [...commits(8, '2026-03-02', dee), ...commits(3, '2026-02-18', dee)],
      },
      {
        name: 'helm-charts',
        language: 'Go Template',
        topics: ['helm', 'kubernetes'],
        rootFiles: ['Chart.yaml', 'templates/'],
        createdAt: '2026-02-26T08:00:00Z',
        commits: commits(5, '2026-02-27', dee),
      },
    ],
  };
}

export const launchEntry: WatchlistEntry = { login: 'launch-co', displayName: 'Launch Co', sector: 'enterprise-saas' };
