import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoPath } from '../core/answers/content-files.js';
import { rendered, type Rendered } from '../snapshot/snapshot.js';

/**
 * The site's static files, read once at start and served from memory under a URL carrying their content hash, so
 * browsers may keep them for a year. Nothing is fetched from another origin: the font and the API viewer come from
 * npm packages installed with the service.
 */
export interface StaticAsset extends Rendered {
  /** The URL pages link to (path plus `?v=` hash). */
  url: string;
}

export interface SiteAssets {
  byPath: Map<string, StaticAsset>;
  css: string;
  sortScript: string;
  icon: string;
  docs: { css: string; bundle: string; init: string };
}

const require = createRequire(import.meta.url);

function packageFile(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
}

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
};

let loaded: SiteAssets | undefined;

/** The assets, read once per process (every page and the checkout pages share them). */
export function loadSiteAssets(): SiteAssets {
  return (loaded ??= readSiteAssets());
}

function readSiteAssets(): SiteAssets {
  const files: [string, string][] = [
    ['/assets/site.css', repoPath('src', 'web', 'assets', 'site.css')],
    ['/assets/sort.js', repoPath('src', 'web', 'assets', 'sort.js')],
    ['/assets/docs-init.js', repoPath('src', 'web', 'assets', 'docs-init.js')],
    ['/assets/icon.svg', repoPath('src', 'web', 'assets', 'icon.svg')],
    [
      '/assets/fonts/inter-latin-wght-normal.woff2',
      packageFile('@fontsource-variable/inter', 'files/inter-latin-wght-normal.woff2'),
    ],
    ['/assets/swagger-ui/swagger-ui.css', packageFile('swagger-ui-dist', 'swagger-ui.css')],
    ['/assets/swagger-ui/swagger-ui-bundle.js', packageFile('swagger-ui-dist', 'swagger-ui-bundle.js')],
  ];
  const byPath = new Map<string, StaticAsset>();
  for (const [urlPath, file] of files) {
    const body = fs.readFileSync(file);
    const entity = rendered(body, TYPES[path.extname(file)] ?? 'application/octet-stream');
    const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
    byPath.set(urlPath, { ...entity, url: `${urlPath}?v=${version}` });
  }
  const url = (p: string) => byPath.get(p)!.url;
  return {
    byPath,
    css: url('/assets/site.css'),
    sortScript: url('/assets/sort.js'),
    icon: url('/assets/icon.svg'),
    docs: {
      css: url('/assets/swagger-ui/swagger-ui.css'),
      bundle: url('/assets/swagger-ui/swagger-ui-bundle.js'),
      init: url('/assets/docs-init.js'),
    },
  };
}
