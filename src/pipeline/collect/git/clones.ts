import fs from 'node:fs/promises';
import path from 'node:path';
import type { WatchlistEntry } from '../../../domain/records.js';
import { git, GitError } from './git.js';

/**
 * Where the git source finds an organisation's repositories: a directory of clones laid out as
 * `<clones>/<org>/<repo>` (a working clone) or `<clones>/<org>/<repo>.git` (a bare one), the organisation's directory
 * named as its login (any case). Every clone there is read, and so is every repository the watchlist lists for the
 * organisation (`repository`, `repositories`); a listed one without a clone is cloned when cloning is allowed, as
 * `git clone --bare --filter=blob:none` (commits, trees and tags; file contents only when a diff needs them).
 */

export interface CloneOptions {
  /** The directory of clones. */
  dir: string;
  /** Clone listed repositories that have no clone yet (needs the network). */
  clone?: boolean | undefined;
  /** Fetch every clone before reading it, so its branches and tags are current (needs the network). */
  fetch?: boolean | undefined;
  /** Where repositories are cloned from: `<remote>/<owner>/<name>.git` (default https://github.com). */
  remote?: string | undefined;
}

export interface OrgClone {
  /** The repository's name (the directory's, without `.git`). */
  name: string;
  dir: string;
}

export interface OrgClones {
  clones: OrgClone[];
  /** Listed repositories that could not be read, and why. */
  notes: string[];
}

async function isGitDir(dir: string): Promise<boolean> {
  const exists = (p: string) =>
    fs.stat(p).then(
      () => true,
      () => false,
    );
  return (
    (await exists(path.join(dir, '.git'))) ||
    ((await exists(path.join(dir, 'HEAD'))) && (await exists(path.join(dir, 'objects'))))
  );
}

/** The names of the repositories the watchlist lists for an organisation (without the owner), in order. */
function listedRepositories(entry: WatchlistEntry): string[] {
  const names = [entry.repository, ...(entry.repositories ?? [])]
    .filter((r): r is string => Boolean(r))
    .map((r) => r.slice(r.indexOf('/') + 1));
  return [...new Set(names)];
}

async function orgDirectory(clonesDir: string, login: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await fs.readdir(clonesDir);
  } catch (err) {
    throw new GitError(`the clones directory ${clonesDir} cannot be read: ${(err as Error).message}`);
  }
  const exact = names.find((n) => n === login) ?? names.find((n) => n.toLowerCase() === login.toLowerCase());
  return exact ? path.join(clonesDir, exact) : undefined;
}

/** Finds (and, when allowed, clones or fetches) the clones of an organisation's repositories. */
export async function orgClones(entry: WatchlistEntry, options: CloneOptions): Promise<OrgClones> {
  const notes: string[] = [];
  let orgDir = await orgDirectory(options.dir, entry.login);
  const found = new Map<string, OrgClone>();
  if (orgDir) {
    for (const name of (await fs.readdir(orgDir)).sort()) {
      const dir = path.join(orgDir, name);
      if (!(await isGitDir(dir))) continue;
      const repo = name.replace(/\.git$/, '');
      if (!found.has(repo.toLowerCase())) found.set(repo.toLowerCase(), { name: repo, dir });
    }
  }
  for (const name of listedRepositories(entry)) {
    if (found.has(name.toLowerCase())) continue;
    if (!options.clone) {
      notes.push(`${name}: listed, but no clone in ${options.dir}/${entry.login}/ (not read)`);
      continue;
    }
    orgDir ??= path.join(options.dir, entry.login);
    await fs.mkdir(orgDir, { recursive: true });
    const dir = path.join(orgDir, `${name}.git`);
    const url = `${(options.remote ?? 'https://github.com').replace(/\/$/, '')}/${entry.login}/${name}.git`;
    try {
      await git(undefined, ['clone', '--quiet', '--bare', '--filter=blob:none', url, dir]);
      // A bare clone keeps no fetch rule: map the remote's branches onto its own, so a fetch updates them.
      await git(dir, ['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*']);
      found.set(name.toLowerCase(), { name, dir });
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true });
      notes.push(`${name}: could not be cloned (${(err as Error).message})`);
    }
  }
  const clones = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (options.fetch) {
    for (const clone of clones) {
      try {
        await git(clone.dir, ['fetch', '--quiet', '--prune', '--tags', 'origin']);
      } catch (err) {
        notes.push(`${clone.name}: could not be fetched, read as it was (${(err as Error).message})`);
      }
    }
  }
  return { clones, notes };
}
