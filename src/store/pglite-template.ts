import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PACKAGE_ROOT, packageRootAbove } from '../package-root.js';

/**
 * A freshly initialised PGlite cluster, packed once (at build time, `npm run build`) so that a new data directory
 * starts from a copy instead of running initdb in WebAssembly at the first start (about 0.8 s to unpack against
 * 2.7 s for initdb, measured). It holds nothing of ours: no schema, no data (the migrations and the demo data run
 * at start as always). The file is keyed by PGlite's version and the settings the host starts it with, and kept in
 * node_modules/.cache, so a new install or another PGlite makes a new one; without it the host runs initdb.
 */

/** Settings the host starts PGlite with (see embedded-host.ts). */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

/** PGlite's version, from its package.json (found above its entry point: the package does not export the file). */
function pgliteVersion(): string {
  const dir = packageRootAbove(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** True when DATA_DIR already holds an initialised cluster (a new one is unpacked from the template, or initdb'd). */
export function clusterInitialised(dataDir: string): boolean {
  return fs.existsSync(path.join(clusterDir(dataDir), 'PG_VERSION'));
}

/** Where the embedded database keeps its cluster inside DATA_DIR. */
export function clusterDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

export function templatePath(): string {
  const key = createHash('sha256')
    .update(JSON.stringify([pgliteVersion(), PGLITE_SETTINGS]))
    .digest('hex')
    .slice(0, 12);
  return path.join(PACKAGE_ROOT, 'node_modules', '.cache', 'signal-service', `pglite-cluster-${key}.tar.gz`);
}

/** The template's bytes, or undefined when it has not been built (the host then runs initdb). */
export function readTemplate(): Buffer | undefined {
  try {
    return fs.readFileSync(templatePath());
  } catch {
    return undefined;
  }
}

/** Builds the template unless it exists; returns its path. Written to a temporary name and renamed into place. */
export async function ensureTemplate(): Promise<string> {
  const target = templatePath();
  if (fs.existsSync(target)) return target;
  // Loaded here only: the serving process imports this module for clusterInitialised and never needs PGlite itself.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({ startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
  const dump = await db.dumpDataDir('gzip');
  await db.close();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, target);
  return target;
}
