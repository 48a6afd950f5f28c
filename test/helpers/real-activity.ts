import { landingTimes, repoName, type OrgFixture } from '../../evaluation/real-activity.js';
import type { FakeFileChange, FakeOrg } from './fake-github.js';

const STATUS: Record<string, FakeFileChange['status']> = {
  A: 'added',
  M: 'modified',
  D: 'removed',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

function fileChange(f: { path: string; status: string; previousPath?: string; additions: number; deletions: number }) {
  return {
    path: f.path,
    status: STATUS[f.status[0]!] ?? 'modified',
    ...(f.previousPath ? { previousPath: f.previousPath } : {}),
    additions: f.additions,
    deletions: f.deletions,
  };
}

/**
 * An organisation of the real-activity set as the tests' fake GitHub serves it: each repository's default-branch
 * commits with their authors (pseudonyms, or automation as it signed), parents and the time each reached the branch
 * (evaluation/real-activity.ts, landingTimes), and its tags. With `asOf`, only what had landed (commits) or been
 * made (tags) by then: the organisation as a collector saw it at that instant. Git holds no GitHub releases or deployments, so there are none.
 */
export function fakeOrgFromFixture(fixture: OrgFixture, asOf?: Date): FakeOrg {
  const cutoff = asOf?.getTime() ?? Infinity;
  return {
    login: fixture.org,
    repos: fixture.repos.map((repo) => {
      const landed = landingTimes(repo);
      const commits = repo.commits
        .filter((c) => landed.has(c.oid) && Date.parse(landed.get(c.oid)!) <= cutoff)
        .map((c) => ({
          oid: c.oid,
          committedDate: c.committedDate,
          name: c.author.name,
          email: c.author.email,
          login: c.author.login,
          parents: c.parents.length,
          landedAt: landed.get(c.oid)!,
          ...(c.files ? { files: c.files.map(fileChange) } : {}),
        }));
      return {
        name: repoName(repo),
        createdAt: repo.createdAt,
        language: null,
        commits,
        // A tag is dated by its tagger (or its commit): it existed from then, whichever branch its commit was on.
        tags: repo.tags
          .filter((t) => Date.parse(t.date) <= cutoff)
          .map((t) => ({ name: t.name, date: t.date, annotated: t.annotated })),
      };
    }),
  };
}
