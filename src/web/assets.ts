import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoPath } from '../core/answers/content-files.js';
import { rendered, type Rendered } from '../snapshot/snapshot.js';

/**
 * The site's static files, read once per server at start and served from memory under a URL carrying their content hash, so
 * browsers may keep them for a year. Nothing is fetched from another origin: the font comes from an npm package
 * installed with the service. The API reference is rendered on the server (no viewer bundle).
 */
export interface StaticAsset extends Rendered {
  /** The URL pages link to (path plus `?v=` hash). */
  url: string;
  /** The content hash in `url`: only a request naming it may be cached for a year. */
  version: string;
}

export interface SiteAssets {
  byPath: Map<string, StaticAsset>;
  css: string;
  sortScript: string;
  /** Chart tooltips (week and values on hover and keyboard focus); pages with a chart load it. */
  chartScript: string;
  /** Progress of slow look-ups (data-busy forms and links); the Scout pages load it. */
  busyScript: string;
  /** Shortens the synthetic-data notice after a first visit (pages of the demo dataset load it). */
  noticeScript: string;
  /** Submits a week picker on change (forms marked data-autosubmit); pages with one load it. */
  pickerScript: string;
  /** A "Copy" button beside each request to copy (.copy-box); pages with one load it. */
  copyScript: string;
  icon: string;
  /** The font the stylesheet uses, preloaded by every page. */
  font: string;
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

const FONT_PATH = '/assets/fonts/inter-latin-wght-normal.woff2';

/** Reads the assets: once per server (buildServer), which hands them to every route that renders a page. */
export function readSiteAssets(): SiteAssets {
  // Files the stylesheet refers to come first: the stylesheet names them by their versioned URL, so they too can be
  // cached for a year, and its own hash changes when they do.
  const files: [string, string][] = [
    [FONT_PATH, packageFile('@fontsource-variable/inter', 'files/inter-latin-wght-normal.woff2')],
    ['/assets/icon.svg', repoPath('src', 'web', 'assets', 'icon.svg')],
    ['/assets/site.css', repoPath('src', 'web', 'assets', 'site.css')],
    ['/assets/sort.js', repoPath('src', 'web', 'assets', 'sort.js')],
    ['/assets/chart.js', repoPath('src', 'web', 'assets', 'chart.js')],
    ['/assets/busy.js', repoPath('src', 'web', 'assets', 'busy.js')],
    ['/assets/notice.js', repoPath('src', 'web', 'assets', 'notice.js')],
    ['/assets/picker.js', repoPath('src', 'web', 'assets', 'picker.js')],
    ['/assets/copy.js', repoPath('src', 'web', 'assets', 'copy.js')],
  ];
  const byPath = new Map<string, StaticAsset>();
  for (const [urlPath, file] of files) {
    let body = fs.readFileSync(file);
    if (urlPath.endsWith('.css')) {
      let text = body.toString('utf8');
      for (const [known, asset] of byPath) text = text.split(`url('${known}')`).join(`url('${asset.url}')`);
      body = Buffer.from(text, 'utf8');
    }
    const entity = rendered(body, TYPES[path.extname(file)] ?? 'application/octet-stream');
    const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
    byPath.set(urlPath, { ...entity, url: `${urlPath}?v=${version}`, version });
  }
  const url = (p: string) => byPath.get(p)!.url;
  return {
    byPath,
    css: url('/assets/site.css'),
    sortScript: url('/assets/sort.js'),
    chartScript: url('/assets/chart.js'),
    busyScript: url('/assets/busy.js'),
    noticeScript: url('/assets/notice.js'),
    pickerScript: url('/assets/picker.js'),
    copyScript: url('/assets/copy.js'),
    icon: url('/assets/icon.svg'),
    font: url(FONT_PATH),
  };
}
