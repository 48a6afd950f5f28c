/**
 * `npm start`'s build step: compiles src/ into dist/ (`tsc -b tsconfig.build.json`) only when a source file or a
 * compiler setting is newer than the last build, so a start after `npm ci` (which builds) or after an unchanged
 * previous start costs a directory walk instead of loading the compiler. Plain JavaScript, run by plain node.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const marker = path.join(root, 'dist', '.tsbuildinfo');
const inputs = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => path.join(root, f));

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
    built = fs.statSync(marker).mtimeMs;
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
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // tsc leaves its build info untouched when the changed inputs compile to the same output; mark this build.
  const now = new Date();
  fs.utimesSync(marker, now, now);
}
