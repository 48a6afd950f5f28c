/**
 * `npm start`'s build step: bundles src/ into dist/ (scripts/build.mjs) only when a source file or a build setting is
 * newer than the last build, so a start after `npm ci` (which builds) or after an unchanged previous start costs a
 * directory walk. Plain JavaScript, run by plain node.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = ['scripts/build.mjs', 'package-lock.json'].map((f) => path.join(root, f));

function newestUnder(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function stale() {
  let built;
  try {
    built = fs.statSync(stamp).mtimeMs;
  } catch {
    return true;
  }
  const newestInput = Math.max(
    newestUnder(path.join(root, 'src')),
    ...inputs.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)),
  );
  return newestInput > built;
}

if (stale()) {
  const { bundle, makeTemplate } = await import('./build.mjs');
  await bundle();
  makeTemplate();
}
