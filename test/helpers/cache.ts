import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

/**
 * Values the tests would otherwise recompute in every file (generated datasets, prepared databases), made once and
 * kept outside the repository. Every entry is named by a hash of what made it: its inputs and the source files it was
 * made by, so an edit to that code, another worktree's code or a new week makes a new entry instead of reusing one.
 */
export const CACHE_DIR = path.join(os.tmpdir(), 'signal-service-test-cache');

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const sourceHashes = new Map<string, string>();

/** A hash of every source and data file (.ts, .json) under these directories of `src/`: their paths and contents. */
export function sourceHash(dirs: readonly string[]): string {
  const id = dirs.join('\n');
  let known = sourceHashes.get(id);
  if (known) return known;
  const hash = createHash('sha256');
  for (const dir of dirs) {
    const root = path.join(SRC, dir);
    const files = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') || f.endsWith('.json'))
      .sort();
    for (const file of files) hash.update(`${dir}/${file}\0`).update(fs.readFileSync(path.join(root, file)));
  }
  sourceHashes.set(id, (known = hash.digest('hex')));
  return known;
}

/** The name of a cache entry: its kind and a hash of its key. */
export function cacheName(kind: string, key: unknown): string {
  return `${kind}-${createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 16)}`;
}

/** Moves a finished entry into place; when another process finished the same entry first, keeps that one. */
export function publishEntry(partial: string, target: string): void {
  try {
    fs.renameSync(partial, target);
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(target)) throw err;
  }
}

/**
 * The value `make` returns, stored under `key` the first time (structured-clone encoding, so dates, `undefined`
 * members and typed arrays come back as they were). Every call returns its own copy, so a test may change it.
 */
export function cachedValue<T>(kind: string, key: unknown, make: () => T): T {
  const file = path.join(CACHE_DIR, `${cacheName(kind, key)}.v8`);
  try {
    return v8.deserialize(fs.readFileSync(file)) as T;
  } catch {
    // not made yet (or unreadable): made now
  }
  const value = make();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, v8.serialize(value));
  publishEntry(partial, file);
  return value;
}
