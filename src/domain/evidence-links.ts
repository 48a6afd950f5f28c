import type { ContributorEvidence, DeployEventEvidence, EvidenceMetrics } from './records.js';

/**
 * A label's evidence as a person can check it: the people, events and repositories behind the counts, each with the
 * link to its GitHub object, read from the evidence the classify stage stored with the record. People appear by
 * their public GitHub login only (an author without a linked account is counted, never named).
 */
export interface EvidenceDetails {
  people: (Omit<ContributorEvidence, 'login'> & { login: string | null; url: string | null })[];
  events: (DeployEventEvidence & { url: string })[];
  newRepositories: { name: string; url: string }[];
  /** The repositories carrying the window's work, most commits first (commits of the window and of the prior one). */
  repositories: { name: string; url: string; commits: number; commitsPrior: number }[];
  infrastructurePaths: { repo: string; path: string; url: string }[];
  languageMove: { from: string; to: string; files: number } | null;
  frameworksReplaced: { kind: string; from: string; to: string }[];
}

const seg = (s: string) => encodeURIComponent(s);

/** `githubUrl` is the organisation's page (https://github.com/<org>, or the demo's reserved host). */
export function evidenceDetails(
  githubUrl: string,
  metrics: Readonly<Record<string, unknown>> | undefined,
): EvidenceDetails {
  const e = (metrics?.['evidence'] ?? {}) as Partial<EvidenceMetrics>;
  const base = githubUrl.replace(/\/+$/, '');
  const host = new URL(base).origin;
  const repoUrl = (repo: string) => `${base}/${seg(repo)}`;
  return {
    people: (e.people ?? []).map((p) => ({ ...p, url: p.login ? `${host}/${seg(p.login)}` : null })),
    events: (e.deployEvents ?? []).map((ev) => ({
      ...ev,
      url:
        ev.kind === 'release'
          ? `${repoUrl(ev.repo)}/releases/tag/${seg(ev.name)}`
          : ev.kind === 'tag'
            ? `${repoUrl(ev.repo)}/tree/${seg(ev.name)}`
            : `${repoUrl(ev.repo)}/deployments`,
    })),
    newRepositories: (e.newRepoNames ?? []).map((name) => ({ name, url: repoUrl(name) })),
    repositories: (e.activeRepos ?? []).map((r) => ({
      name: r.repo,
      url: repoUrl(r.repo),
      commits: r.commits,
      commitsPrior: r.commitsPrior,
    })),
    infrastructurePaths: (e.infraPaths ?? []).map((p) => {
      const [repo, ...rest] = p.split(':');
      const path = rest.join(':');
      return { repo: repo!, path, url: `${repoUrl(repo!)}/blob/HEAD/${path.split('/').map(seg).join('/')}` };
    }),
    languageMove: e.languageMove ?? null,
    frameworksReplaced: e.frameworkSwaps ?? [],
  };
}
