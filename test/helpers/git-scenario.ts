import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FakeCommit, FakeFileChange, FakeOrg, FakeRepo } from './fake-github.js';

const exec = promisify(execFile);

/**
 * Real git repositories made in a temporary directory, commit by commit, with set author and committer dates (git's
 * own protocol: GIT_AUTHOR_DATE / GIT_COMMITTER_DATE), and the same history as the tests' fake GitHub serves it, so
 * the git source and the API collector can be given the same activity.
 *
 * A scenario is a list of steps in the order they happened. A commit on `main` reached the branch when it was made; a
 * commit on another branch reached it when that branch was merged (`merge`), by a merge commit dated then. File
 * changes only add lines or rename a file unchanged, so a comparison of two tips (git's diff, the fake's fold of
 * per-commit changes) counts the same lines.
 */

export interface Person {
  name: string;
  email: string;
}

export type ScenarioStep =
  | {
      repo: string;
      at: string;
      author: Person;
      /** Default `main`; another name makes (or continues) a branch started from main as it is then. */
      branch?: string;
      /** Files given lines to append (a new file is added), or renamed unchanged (`from`). */
      files?: { path: string; lines?: number; from?: string }[];
    }
  | { repo: string; at: string; author: Person; merge: string }
  | { repo: string; at: string; tag: string; on?: 'main' | string; annotated?: boolean; tagger?: Person };

const env = (at: string, who: Person) => ({
  PATH: process.env.PATH,
  HOME: os.tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: who.name,
  GIT_AUTHOR_EMAIL: who.email,
  GIT_AUTHOR_DATE: at,
  GIT_COMMITTER_NAME: who.name,
  GIT_COMMITTER_EMAIL: who.email,
  GIT_COMMITTER_DATE: at,
});

export async function runGit(dir: string, args: string[], at = '2020-01-01T00:00:00Z', who?: Person): Promise<string> {
  const { stdout } = await exec('git', ['-C', dir, ...args], {
    env: env(at, who ?? { name: 'Test', email: 'test@example.invalid' }),
  });
  return stdout;
}

/** Makes the working repositories of a scenario under `dir/<repo>` (branch `main`); returns their directories. */
export async function buildRepos(dir: string, steps: readonly ScenarioStep[]): Promise<Map<string, string>> {
  const repos = new Map<string, string>();
  const lines = new Map<string, number>();
  for (const step of steps) {
    let repoDir = repos.get(step.repo);
    if (!repoDir) {
      repoDir = path.join(dir, step.repo);
      await fs.mkdir(repoDir, { recursive: true });
      await runGit(repoDir, ['init', '-q', '-b', 'main']);
      await runGit(repoDir, ['config', 'uploadpack.allowFilter', 'true']);
      repos.set(step.repo, repoDir);
    }
    if ('tag' in step) {
      const args = step.annotated ? ['tag', '-a', step.tag, '-m', step.tag] : ['tag', step.tag];
      await runGit(repoDir, [...args, step.on ?? 'main'], step.at, step.tagger);
      continue;
    }
    if ('merge' in step) {
      await runGit(repoDir, ['merge', '-q', '--no-ff', '-m', `Merge ${step.merge}`, step.merge], step.at, step.author);
      continue;
    }
    const branch = step.branch ?? 'main';
    const branches = await runGit(repoDir, ['branch', '--list', branch]);
    const hasMain = (await runGit(repoDir, ['rev-parse', '-q', '--verify', 'main']).catch(() => '')) !== '';
    if (branch !== 'main' && !branches.trim()) await runGit(repoDir, ['checkout', '-q', '-b', branch, 'main']);
    else if (hasMain) await runGit(repoDir, ['checkout', '-q', branch]);
    for (const f of step.files ?? []) {
      const file = path.join(repoDir, f.path);
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (f.from) {
        await runGit(repoDir, ['mv', f.from, f.path]);
        lines.set(`${step.repo}:${f.path}`, lines.get(`${step.repo}:${f.from}`) ?? 0);
        continue;
      }
      const key = `${step.repo}:${f.path}`;
      const start = lines.get(key) ?? 0;
      const n = f.lines ?? 1;
      const text = Array.from({ length: n }, (_, i) => `line ${start + i + 1} of ${f.path}`).join('\n') + '\n';
      await fs.appendFile(file, text);
      lines.set(key, start + n);
    }
    await runGit(repoDir, ['add', '-A']);
    await runGit(repoDir, ['commit', '-q', '--allow-empty', '-m', `work at ${step.at}`], step.at, step.author);
    if (branch !== 'main') await runGit(repoDir, ['checkout', '-q', 'main']);
  }
  return repos;
}

/** Bare clones of the repositories laid out as the git source reads them: `<clones>/<org>/<repo>.git`. */
export async function bareClones(repos: ReadonlyMap<string, string>, clonesDir: string, org: string): Promise<void> {
  await fs.mkdir(path.join(clonesDir, org), { recursive: true });
  for (const [name, dir] of repos) {
    const target = path.join(clonesDir, org, `${name}.git`);
    await exec('git', ['clone', '-q', '--bare', dir, target], {
      env: env('2020-01-01T00:00:00Z', { name: 't', email: 't@t' }),
    });
    await runGit(target, ['config', 'uploadpack.allowFilter', 'true']);
  }
}

const utc = (at: string) => new Date(at).toISOString().replace('.000Z', 'Z');

/**
 * The scenario as the fake GitHub serves it: every commit that reached `main` (unlinked authors: known by e-mail, as
 * git knows them), with its parents, the time it reached the branch and the files it changed; the tags; the files at
 * the root of the branch. Branches never merged are not on the default branch, so not served.
 */
export function fakeOrgOf(login: string, steps: readonly ScenarioStep[], rootFiles: Record<string, string[]>): FakeOrg {
  const repos = new Map<string, FakeRepo>();
  const pending = new Map<string, FakeCommit[]>();
  const known = new Set<string>();
  const lastOnMain = new Map<string, string>();
  for (const step of steps) {
    let repo = repos.get(step.repo);
    if (!repo) {
      repo = { name: step.repo, createdAt: utc(step.at), commits: [], tags: [], rootFiles: rootFiles[step.repo] ?? [] };
      repos.set(step.repo, repo);
    }
    if ('tag' in step) {
      const commitDate = step.on && step.on !== 'main' ? undefined : lastOnMain.get(step.repo);
      repo.tags!.push({ name: step.tag, date: step.annotated ? utc(step.at) : commitDate!, annotated: step.annotated });
      continue;
    }
    const person = { login: null, name: step.author.name, email: step.author.email };
    if ('merge' in step) {
      const key = `${step.repo}:${step.merge}`;
      for (const c of pending.get(key) ?? []) repo.commits.push({ ...c, landedAt: utc(step.at) });
      pending.delete(key);
      repo.commits.push({ committedDate: utc(step.at), ...person, parents: 2 });
      lastOnMain.set(step.repo, utc(step.at));
      continue;
    }
    const files: FakeFileChange[] = (step.files ?? []).map((f) => {
      const id = `${step.repo}:${f.path}`;
      if (f.from) {
        known.add(id);
        return { path: f.path, status: 'renamed', previousPath: f.from, additions: 0, deletions: 0 };
      }
      const status = known.has(id) ? 'modified' : 'added';
      known.add(id);
      return { path: f.path, status, additions: f.lines ?? 1, deletions: 0 };
    });
    const commit: FakeCommit = { committedDate: utc(step.at), ...person, files };
    const branch = step.branch ?? 'main';
    if (branch === 'main') {
      repo.commits.push(commit);
      lastOnMain.set(step.repo, utc(step.at));
    } else {
      const key = `${step.repo}:${branch}`;
      pending.set(key, [...(pending.get(key) ?? []), commit]);
    }
  }
  return { login, repos: [...repos.values()] };
}

export async function tempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
}

/** A commit as `git fast-import` takes it: the marks of its parents, its people and dates, no files. */
interface ImportCommit {
  oid: string;
  parents: string[];
  author: Person;
  authorDate: string;
  committer: Person;
  committedDate: string;
}

const seconds = (at: string) => Math.floor(Date.parse(at) / 1000);
const ident = (p: Person, at: string) =>
  `${p.name.replace(/[<>\n]/g, '') || 'unknown'} <${p.email.replace(/[<>\n]/g, '')}> ${seconds(at)} +0000`;

/**
 * A bare git repository holding a given commit graph (commit metadata only: empty trees) on `branch`, with tags, via
 * `git fast-import`. A parent outside the given commits becomes an empty root commit dated 1970, so every commit
 * keeps its number and order of parents (a merge stays a merge) without bringing anything into a window.
 */
export async function importGraph(
  dir: string,
  branch: string,
  tip: string,
  commits: readonly ImportCommit[],
  tags: readonly { name: string; oid: string; date: string; annotated: boolean; tagger?: Person }[],
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await exec('git', ['init', '-q', '--bare', dir]);
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const marks = new Map<string, number>();
  const out: string[] = [];
  const stub = { name: 'boundary', email: 'boundary@example.invalid' };
  const visit = (oid: string) => {
    // Iterative post-order: parents before children.
    const stack: [string, boolean][] = [[oid, false]];
    while (stack.length) {
      const [o, ready] = stack.pop()!;
      if (marks.has(o)) continue;
      const c = byOid.get(o);
      if (!ready) {
        stack.push([o, true]);
        for (const p of c?.parents ?? []) if (!marks.has(p)) stack.push([p, false]);
        continue;
      }
      const mark = marks.size + 1;
      marks.set(o, mark);
      if (!c) {
        out.push(
          `reset refs/import/boundary\ncommit refs/import/boundary\nmark :${mark}\ncommitter ${ident(stub, '1970-01-02T00:00:00Z')}\ndata 0\n`,
        );
        continue;
      }
      const parents = c.parents.map((p) => `:${marks.get(p)!}`);
      out.push(
        [
          // A reset first: a commit without `from` would otherwise continue the import branch.
          `reset refs/import/all`,
          `commit refs/import/all`,
          `mark :${mark}`,
          `author ${ident(c.author, c.authorDate)}`,
          `committer ${ident(c.committer, c.committedDate)}`,
          'data 0',
          ...(parents.length ? [`from ${parents[0]}`] : []),
          ...parents.slice(1).map((p) => `merge ${p}`),
          '',
        ].join('\n'),
      );
    }
  };
  for (const c of commits) visit(c.oid);
  visit(tip);
  out.push(`reset refs/heads/${branch}\nfrom :${marks.get(tip)!}\n`);
  for (const t of tags) {
    const mark = marks.get(t.oid);
    if (!mark) continue;
    out.push(
      t.annotated
        ? `tag ${t.name}\nfrom :${mark}\ntagger ${ident(t.tagger ?? stub, t.date)}\ndata 0\n`
        : `reset refs/tags/${t.name}\nfrom :${mark}\n`,
    );
  }
  await new Promise<void>((resolve, reject) => {
    const child = execFile('git', ['-C', dir, 'fast-import', '--quiet', '--force'], (err) =>
      err ? reject(err) : resolve(),
    );
    child.stdin!.end(out.join('\n'));
  });
  await exec('git', ['-C', dir, 'update-ref', '-d', 'refs/import/all']).catch(() => {});
  await exec('git', ['-C', dir, 'update-ref', '-d', 'refs/import/boundary']).catch(() => {});
  await exec('git', ['-C', dir, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}
