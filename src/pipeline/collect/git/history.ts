import { INFRA_ROOT_FILES, MANIFEST_ECOSYSTEMS } from '../../../domain/rules.js';
import type { FileChange } from '../../../domain/records.js';
import { languageOfPath } from '../../changes.js';
import { git, GitError } from './git.js';

/**
 * One repository's default branch as a git clone holds it, read once (its whole commit log, its tags) and then asked
 * about any instant: the branch's tip then, the commits that tip reached, the files at its root, its languages, and
 * the files changed between two tips. Git keeps no record of when a commit reached a branch (a clone has no push
 * log), so the tip at an instant is read from the branch's first-parent chain: the newest commit of that chain
 * committed at or before the instant. A branch merged later comes in through a merge commit dated when it was merged,
 * so its commits, however old their dates, are not reached from an earlier tip (docs/pipeline.md, "The git source").
 */

export interface GitCommit {
  oid: string;
  parents: string[];
  /** Committer date, milliseconds since the epoch (git keeps whole seconds). */
  committedAt: number;
  authorName: string;
  authorEmail: string;
}

export interface GitTag {
  name: string;
  /** The tagger's date of an annotated tag, else the tagged commit's committer date (milliseconds). */
  at: number;
}

/** GitHub's spelling of an instant (no milliseconds), so dates read from git and from the API compare equal. */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const MARKER_FILES = new Set([...Object.keys(MANIFEST_ECOSYSTEMS), ...INFRA_ROOT_FILES]);

/** Infrastructure languages by extension (the rules' map holds application languages only). */
const INFRA_EXTENSIONS: Readonly<Record<string, string>> = {
  tf: 'HCL',
  hcl: 'HCL',
  nix: 'Nix',
  jsonnet: 'Jsonnet',
  libsonnet: 'Jsonnet',
  bicep: 'Bicep',
  cue: 'CUE',
  pp: 'Puppet',
};

/** The language of a file by its name: the rules' extensions, infrastructure extensions, and Dockerfiles. */
function gitLanguageOfPath(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^dockerfile(\..+)?$/i.test(base) || /\.dockerfile$/i.test(base)) return 'Dockerfile';
  const ext = /\.([a-z0-9]+)$/i.exec(base)?.[1]?.toLowerCase();
  return languageOfPath(path) ?? (ext ? INFRA_EXTENSIONS[ext] : undefined);
}

const STATUS: Record<string, FileChange['status']> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

/** The branch a clone's default is: the remote's HEAD in a working clone, else HEAD itself (a bare clone). */
async function defaultBranchOf(dir: string): Promise<{ branch: string; ref: string }> {
  for (const [symbolic, prefix] of [
    ['refs/remotes/origin/HEAD', 'refs/remotes/origin/'],
    ['HEAD', 'refs/heads/'],
  ] as const) {
    const ref = (await git(dir, ['symbolic-ref', '-q', symbolic]).catch(() => '')).trim();
    if (ref.startsWith(prefix)) return { branch: ref.slice(prefix.length), ref };
  }
  throw new GitError(`${dir}: no default branch (HEAD is not a branch)`);
}

export class RepoHistory {
  /** Commits reachable from the branch now, by oid. */
  readonly commits = new Map<string, GitCommit>();
  /** The branch's first-parent chain, newest first. */
  readonly chain: GitCommit[] = [];
  readonly tags: GitTag[] = [];
  private readonly ancestorCache = new Map<string, GitCommit[]>();
  private readonly treeCache = new Map<string, Promise<string[]>>();
  private readonly diffCache = new Map<string, Promise<FileChange[]>>();

  private constructor(
    /** The repository's name (its directory's, without `.git`). */
    readonly name: string,
    readonly dir: string,
    readonly branch: string,
    readonly ref: string,
  ) {}

  /** Reads a clone (bare or with a working tree): its default branch's whole log and its tags. */
  static async open(dir: string, name: string): Promise<RepoHistory> {
    const { branch, ref } = await defaultBranchOf(dir);
    const history = new RepoHistory(name, dir, branch, ref);
    const head = (await git(dir, ['rev-parse', '-q', '--verify', `${ref}^{commit}`]).catch(() => '')).trim();
    if (head) {
      const log = await git(dir, [
        'log',
        '--no-show-signature',
        '--no-color',
        '--format=%H%x1f%P%x1f%ct%x1f%an%x1f%ae%x1e',
        ref,
        '--',
      ]);
      for (const record of log.split('\x1e')) {
        const [oid, parents, ct, name, email] = record.replace(/^\n/, '').split('\x1f');
        if (!oid || ct === undefined) continue;
        history.commits.set(oid, {
          oid,
          parents: parents ? parents.split(' ').filter(Boolean) : [],
          committedAt: Number(ct) * 1000,
          authorName: name ?? '',
          authorEmail: email ?? '',
        });
      }
      for (let c = history.commits.get(head); c; c = history.commits.get(c.parents[0] ?? '')) history.chain.push(c);
    }
    const refs = await git(dir, [
      'for-each-ref',
      '--format=%(refname:strip=2)%1f%(objecttype)%1f%(taggerdate:unix)%1f%(*objecttype)%1f%(*committerdate:unix)%1f%(committerdate:unix)',
      'refs/tags',
    ]);
    for (const line of refs.split('\n')) {
      const [tag, type, taggerDate, targetType, targetDate, commitDate] = line.split('\x1f');
      if (!tag) continue;
      const seconds =
        type === 'tag'
          ? taggerDate || (targetType === 'commit' ? targetDate : '')
          : type === 'commit'
            ? commitDate
            : '';
      if (seconds) history.tags.push({ name: tag, at: Number(seconds) * 1000 });
    }
    return history;
  }

  /** The branch's tip at an instant: the newest first-parent commit committed at or before it (none: no branch yet). */
  tipAt(instant: Date): GitCommit | undefined {
    const t = instant.getTime();
    return this.chain.find((c) => c.committedAt <= t);
  }

  /** Every commit reachable from `oid` (the history GitHub lists from that revision), in no set order. */
  ancestors(oid: string): GitCommit[] {
    const cached = this.ancestorCache.get(oid);
    if (cached) return cached;
    const seen = new Set<string>();
    const out: GitCommit[] = [];
    const stack = [oid];
    while (stack.length) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      const c = this.commits.get(next);
      if (!c) continue; // beyond a shallow clone's boundary
      out.push(c);
      for (const p of c.parents) if (!seen.has(p)) stack.push(p);
    }
    if (this.ancestorCache.size >= 8) this.ancestorCache.delete(this.ancestorCache.keys().next().value!);
    this.ancestorCache.set(oid, out);
    return out;
  }

  /** Every path of the tree at a commit (trees only: a blob-less clone answers without the network). */
  private paths(oid: string): Promise<string[]> {
    let paths = this.treeCache.get(oid);
    if (!paths) {
      paths = git(this.dir, ['ls-tree', '-r', '-z', '--full-tree', oid]).then((out) =>
        out
          .split('\0')
          .filter(Boolean)
          .map((line) => {
            const tab = line.indexOf('\t');
            const [, type] = line.slice(0, tab).split(' ');
            return `${type}\t${line.slice(tab + 1)}`;
          }),
      );
      if (this.treeCache.size >= 16) this.treeCache.delete(this.treeCache.keys().next().value!);
      this.treeCache.set(oid, paths);
    }
    return paths;
  }

  /** Dependency manifests and infrastructure files at the root of the tree at a commit, sorted. */
  async markers(oid: string): Promise<string[]> {
    const root = await git(this.dir, ['ls-tree', '-z', oid]);
    return root
      .split('\0')
      .filter(Boolean)
      .map((line) => ({
        type: line.slice(0, line.indexOf('\t')).split(' ')[1],
        name: line.slice(line.indexOf('\t') + 1),
      }))
      .filter((e) => e.type === 'blob' && (MARKER_FILES.has(e.name) || /\.tf$/i.test(e.name)))
      .map((e) => e.name)
      .sort();
  }

  /** Files by language in the tree at a commit, the most first (git counts files: sizes would need every blob). */
  async languages(oid: string): Promise<Record<string, number>> {
    const counts = new Map<string, number>();
    for (const entry of await this.paths(oid)) {
      const tab = entry.indexOf('\t');
      if (entry.slice(0, tab) !== 'blob') continue;
      const language = gitLanguageOfPath(entry.slice(tab + 1));
      if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
    }
    const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return Object.fromEntries(sorted);
  }

  /**
   * The files changed from one tip to a later one, with renames and the lines added and removed, sorted by path (as
   * GitHub's comparison of two tips lists them, without its 300-file limit). Line counts need the files' contents: a
   * blob-less clone fetches the ones it lacks from its remote.
   */
  changes(base: string, head: string): Promise<FileChange[]> {
    const key = `${base}..${head}`;
    let files = this.diffCache.get(key);
    if (!files) {
      files = this.diff(base, head);
      this.diffCache.set(key, files);
    }
    return files;
  }

  private async diff(base: string, head: string): Promise<FileChange[]> {
    // One diff, read twice: its raw entries (status, paths) and then its line counts, renames found once.
    const out = await git(this.dir, [
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '-M',
      '-z',
      '--raw',
      '--numstat',
      base,
      head,
      '--',
    ]);
    const files = new Map<string, FileChange>();
    const t = out.split('\0');
    for (let i = 0; i < t.length && t[i];) {
      const token = t[i]!;
      if (token.startsWith(':')) {
        // `:<mode> <mode> <oid> <oid> <status>`, then one path, or two for a rename or copy.
        const letter = token.slice(token.lastIndexOf(' ') + 1)[0]!;
        const status = STATUS[letter];
        const paired = letter === 'R' || letter === 'C';
        const [from, to] = paired ? [t[i + 1]!, t[i + 2]!] : [undefined, t[i + 1]!];
        i += paired ? 3 : 2;
        if (status)
          files.set(to, { path: to, status, ...(from ? { previousPath: from } : {}), additions: 0, deletions: 0 });
        continue;
      }
      // `<added>\t<deleted>\t<path>`, or `<added>\t<deleted>\t` then the old and new paths of a rename.
      const [added, deleted, path] = token.split('\t');
      const to = path === '' ? t[i + 2] : path;
      i += path === '' ? 3 : 1;
      const file = to !== undefined ? files.get(to) : undefined;
      if (!file) continue;
      // A binary file has no line counts ("-"): GitHub counts it as 0 and 0 too.
      file.additions = added === '-' ? 0 : Number(added);
      file.deletions = deleted === '-' ? 0 : Number(deleted);
    }
    return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
