import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest directory at or above `from` that holds a package.json. PACKAGE_ROOT is this package's (where
 * package.json, `content/` and `data/` live). Found by walking up rather than by counting levels, because the same code runs
 * from src/ (under tsx) and from dist/ (bundled: a module may land in any chunk file).
 */
export function packageRootAbove(from: string): string {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
}

export const PACKAGE_ROOT = packageRootAbove(path.dirname(fileURLToPath(import.meta.url)));
