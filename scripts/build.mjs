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
  asciiOnly(Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')));
  fs.writeFileSync(path.join(outdir, '.build-stamp'), new Date().toISOString());
  return result;
}

/**
 * Rewrites every character outside ASCII in the bundled code as a `\u` escape. V8 keeps each script's source in
 * memory, in one byte per character when all of it is Latin-1 and in two otherwise: one dash or arrow anywhere in a
 * 2 MB chunk doubled its resident source (about 4.7 MB over the chunks the server loads). esbuild already escapes
 * strings and plain template literals (its default `charset: 'ascii'`), but not comments, regular expressions or
 * tagged templates, whose raw text a tag may read. An escape is the same character in a comment, a regular expression
 * (in a character class too, `u` flag or not) and the cooked strings of a tagged template; only a tag reading the raw
 * strings would see it, and none in the bundle does with such text (our `html` tag reads the cooked ones;
 * test/build.test.ts checks the bundle is ASCII). Source maps keep their positions except after an escape on its line.
 */
function asciiOnly(files) {
  for (const file of files) {
    const code = fs.readFileSync(path.join(root, file), 'utf8');
    if (/^[\x00-\x7f]*$/.test(code)) continue;
    // After a backslash the character is an escape of its own (`\—` in a regular expression), which `\u` would break.
    if (/\\[^\x00-\x7f]/.test(code)) throw new Error(`build: ${file} escapes a character outside ASCII with \\`);
    const escaped = code.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    fs.writeFileSync(path.join(root, file), escaped);
  }
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
