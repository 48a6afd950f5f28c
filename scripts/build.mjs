/**
 * `npm run build`: bundles the service into dist/ with esbuild. Type checking is `npm run typecheck` (part of
 * `npm test`); the build only transpiles and bundles, so it takes well under a second.
 *
 * Why a bundle: Node resolves, reads and links every ES module file separately; the server's code and its libraries
 * are about 2,000 files, which cost about 1.7 s of CPU at every start. One bundle per entry (plus shared chunks, and
 * chunks for code loaded on demand such as the demo generator and the pipeline's commands) loads in about 0.6 s.
 *
 * Entry points keep their paths: dist/cli/main.js (the `signal-service` command), dist/cli/mcp.js (`signal-mcp`),
 * dist/store/embedded-host.js (the embedded database's host process), dist/store/make-pglite-template.js (run once
 * here, see makeTemplate). Libraries that find files next to their own code at run time (WebAssembly, workers, their
 * package.json) stay external and are loaded from node_modules.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');

/** Packages that read files beside their own code (__dirname, worker files, WebAssembly): loaded from node_modules. */
export const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  '@fastify/swagger',
  '@citation-js/*',
  'ioredis',
  'pino',
  'thread-stream',
  'pg-native',
  '@resvg/resvg-js',
];

export async function bundle() {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [
      'src/cli/main.ts',
      'src/cli/mcp.ts',
      'src/store/embedded-host.ts',
      'src/store/make-pglite-template.ts',
    ],
    outbase: 'src',
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'bundle',
    external: EXTERNAL,
    sourcemap: 'linked',
    // CommonJS libraries inside an ES module bundle call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    logLevel: 'warning',
    metafile: true,
  });
  fs.writeFileSync(path.join(outdir, '.build-stamp'), new Date().toISOString());
  return result;
}

/**
 * The embedded database's cluster template (src/store/pglite-template.ts): made once per PGlite version and
 * settings, in node_modules/.cache, so the first start on a new data directory skips initdb. A failure here only
 * costs that first start its initdb, so it is reported, not fatal.
 */
export function makeTemplate() {
  const made = spawnSync(process.execPath, [path.join(outdir, 'store', 'make-pglite-template.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (made.status !== 0) process.stderr.write('build: no PGlite cluster template (the first start will run initdb)\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
  makeTemplate();
}
