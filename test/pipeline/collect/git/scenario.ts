import type { ScenarioStep } from '../../../helpers/git-scenario.js';

/**
 * Gitco's two repositories around week 2026-w10 (windows end 2026-03-09 00:00 UTC: current 02-23 … 03-08, prior
 * 02-09 … 02-22; the collector reads from 02-02), written as git history:
 * - app (since 2025-06-01): ivy and jon before the look-back window; in the prior window ivy 3, jon 2; in the
 *   current window ivy renames src/util.js to src/util.ts, jon 2, kim (new) 3 on 3 days, dependabot 1, alice (a
 *   GitHub no-reply address) 1, lee 2 on a branch merged on 03-05 by ivy's merge commit; mo 2 on a branch dated
 *   03-06/03-07 but merged on 03-20, after the week; ivy 1 on 03-16; tags nightly (lightweight, 02-25), v1.0.0
 *   (annotated, 03-03) and v2.0.0 (03-21);
 * - infra (first commit 2026-02-20: a new repository): jon's Terraform and a Dockerfile.
 * Expected for the week: 9 + 2 = 11 people's commits in the current window, 1 merge, 1 automation commit; no
 * commit of mo's.
 */
export const PERIOD_END = new Date('2026-03-09T00:00:00Z');
export const FROM = '2026-02-02';

export const ivy = { name: 'Ivy', email: 'ivy@gitco.example' };
export const jon = { name: 'Jon', email: 'jon@gitco.example' };
export const kim = { name: 'Kim', email: 'kim@gitco.example' };
export const lee = { name: 'Lee', email: 'lee@gitco.example' };
export const mo = { name: 'Mo', email: 'mo@gitco.example' };
export const alice = { name: 'Alice', email: '1234+alice@users.noreply.github.com' };
export const dependabot = { name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' };

export const STEPS: ScenarioStep[] = [
  {
    repo: 'app',
    at: '2025-06-01T10:00:00Z',
    author: ivy,
    files: [
      { path: 'package.json', lines: 3 },
      { path: 'src/index.js', lines: 10 },
      { path: 'src/util.js', lines: 5 },
    ],
  },
  { repo: 'app', at: '2025-09-15T10:00:00Z', author: jon, files: [{ path: 'src/index.js', lines: 2 }] },
  { repo: 'app', at: '2026-02-04T10:00:00Z', author: ivy, files: [{ path: 'src/index.js', lines: 1 }] },
  { repo: 'app', at: '2026-02-10T09:00:00Z', author: ivy, files: [{ path: 'src/index.js', lines: 3 }] },
  { repo: 'app', at: '2026-02-12T09:00:00Z', author: ivy, files: [{ path: 'README.md', lines: 4 }] },
  { repo: 'app', at: '2026-02-16T09:00:00Z', author: ivy, files: [{ path: 'src/index.js', lines: 1 }] },
  { repo: 'app', at: '2026-02-18T11:00:00Z', author: jon, files: [{ path: 'src/api.js', lines: 6 }] },
  { repo: 'app', at: '2026-02-19T11:00:00Z', author: jon, files: [{ path: 'src/api.js', lines: 2 }] },
  { repo: 'infra', at: '2026-02-20T10:00:00Z', author: jon, files: [{ path: 'main.tf', lines: 10 }] },
  { repo: 'app', at: '2026-02-24T10:00:00Z', author: ivy, files: [{ path: 'src/util.ts', from: 'src/util.js' }] },
  { repo: 'app', at: '2026-02-25T10:00:00Z', author: jon, files: [{ path: 'src/api.js', lines: 3 }] },
  { repo: 'app', at: '2026-02-25T12:00:00Z', tag: 'nightly' },
  { repo: 'app', at: '2026-02-26T10:00:00Z', author: jon, files: [{ path: 'src/api.js', lines: 1 }] },
  {
    repo: 'app',
    at: '2026-02-27T10:00:00Z',
    author: lee,
    branch: 'feature',
    files: [{ path: 'src/feature.ts', lines: 7 }],
  },
  { repo: 'infra', at: '2026-02-27T10:00:00Z', author: jon, files: [{ path: 'modules/net/main.tf', lines: 12 }] },
  {
    repo: 'app',
    at: '2026-03-01T10:00:00Z',
    author: lee,
    branch: 'feature',
    files: [{ path: 'src/feature.ts', lines: 3 }],
  },
  { repo: 'app', at: '2026-03-02T03:00:00Z', author: dependabot, files: [{ path: 'package.json', lines: 1 }] },
  { repo: 'app', at: '2026-03-02T10:00:00Z', author: kim, files: [{ path: 'src/kim.ts', lines: 5 }] },
  { repo: 'app', at: '2026-03-03T10:00:00Z', author: kim, files: [{ path: 'src/kim.ts', lines: 2 }] },
  { repo: 'app', at: '2026-03-03T15:00:00Z', author: alice, files: [{ path: 'docs/guide.md', lines: 8 }] },
  { repo: 'app', at: '2026-03-03T18:00:00Z', tag: 'v1.0.0', annotated: true, tagger: ivy },
  { repo: 'app', at: '2026-03-04T10:00:00Z', author: kim, files: [{ path: 'src/kim.ts', lines: 2 }] },
  { repo: 'infra', at: '2026-03-04T10:00:00Z', author: jon, files: [{ path: 'Dockerfile', lines: 3 }] },
  { repo: 'app', at: '2026-03-05T12:00:00Z', author: ivy, merge: 'feature' },
  { repo: 'app', at: '2026-03-06T10:00:00Z', author: mo, branch: 'late', files: [{ path: 'src/late.ts', lines: 20 }] },
  { repo: 'app', at: '2026-03-07T10:00:00Z', author: mo, branch: 'late', files: [{ path: 'src/late.ts', lines: 5 }] },
  // After the week.
  { repo: 'app', at: '2026-03-16T10:00:00Z', author: ivy, files: [{ path: 'src/index.js', lines: 2 }] },
  { repo: 'app', at: '2026-03-20T12:00:00Z', author: ivy, merge: 'late' },
  { repo: 'app', at: '2026-03-21T09:00:00Z', tag: 'v2.0.0', annotated: true, tagger: ivy },
];

/** What the history held when the week closed. */
export const STEPS_THEN = STEPS.filter((s) => Date.parse(s.at) < PERIOD_END.getTime());

export const ROOT_FILES = {
  app: ['package.json', 'README.md', 'src/', 'docs/'],
  infra: ['main.tf', 'Dockerfile', 'modules/'],
};
