import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { parsePeriodSlug, shiftPeriod } from '../src/domain/periods.js';
import { DEMO_PERIODS } from '../src/pipeline/demo/seed.js';
import { templatePath } from '../src/store/pglite-template.js';
import { freePort } from './helpers/net.js';

const run = promisify(execFile);

/** The bundle is built once for this file, by whichever suite comes first. */
let building: Promise<unknown> | undefined;
const buildOnce = () => (building ??= run(process.execPath, ['scripts/build.mjs']));

interface Bundle {
  base: string;
  /** Everything the server has printed so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts the built server (`node [nodeArgs] dist/cli/main.js serve`) on a free port with `env` added to this
 * process's environment, keys set to undefined removed, and waits for its "serving" line.
 */
async function startBundle(env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<Bundle> {
  await buildOnce();
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[key];
    else childEnv[key] = value;
  }
  const child = spawn(process.execPath, [...nodeArgs, 'dist/cli/main.js', 'serve'], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 60_000;
  while (!log.includes('"msg":"serving"')) {
    if (child.exitCode !== null) throw new Error(`the bundle exited with ${child.exitCode}:\n${log}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the bundle did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base: `http://127.0.0.1:${port}`, log: () => log, stop };
}

/**
 * The built service, as `npm start` runs it: the esbuild bundle in dist/ (scripts/build.mjs), the embedded database
 * (its host process started from the bundle, its cluster unpacked from the build's template) and the libraries kept
 * outside the bundle (PGlite, Swagger, citation-js, pino, ioredis). The rest of the suite runs the sources under tsx.
 */
describe('the built bundle', () => {
  let dataDir: string;
  let bundle: Bundle | undefined;
  let base: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signal-bundle-'));
    // The embedded default, as `npm ci && npm start` runs it: no PostgreSQL, no Redis.
    bundle = await startBundle({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
    });
    base = bundle.base;
  });

  after(async () => {
    await bundle?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the build writes the entry points and the embedded database cluster template', () => {
    for (const entry of ['cli/main.js', 'cli/mcp.js', 'store/embedded-host.js']) {
      assert.ok(fs.existsSync(path.join('dist', entry)), entry);
    }
    assert.ok(fs.statSync(templatePath()).size > 1_000_000);
  });

  test('every bundled script is ASCII, so V8 holds its source in one byte per character', () => {
    const scripts = fs
      .readdirSync('dist', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js'));
    assert.ok(scripts.length > 10);
    for (const file of scripts) {
      assert.match(fs.readFileSync(path.join('dist', file), 'latin1'), /^[\x00-\x7f]*$/, file);
    }
  });

  test("a first start generates the demo's newest week while the database initialises, and logs each phase", () => {
    const log = bundle!.log();
    assert.match(log, /"phase":"generate the demo's newest week \(while the database initialises\)"/);
    assert.match(log, /"phase":"serve the demo's newest week from memory"/);
    assert.doesNotMatch(log, /"level":50/);
  });

  test('a first start answers an earlier week once it is generated, and stores the whole demo behind', async () => {
    const current = (await (await fetch(`${base}/api/signals.json`)).json()) as { meta: { period: { slug: string } } };
    const earliest = shiftPeriod(parsePeriodSlug(current.meta.period.slug)!, -(DEMO_PERIODS - 1)).slug;
    const earlier = await fetch(`${base}/api/signals.json?period=${earliest}`);
    assert.equal(earlier.status, 200);
    const deadline = Date.now() + 60_000;
    while (!bundle!.log().includes('loaded the synthetic demo dataset') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(bundle!.log(), /"periods":30,"msg":"loaded the synthetic demo dataset"/);
    assert.doesNotMatch(bundle!.log(), /"level":50/);
  });

  test('the bundled server answers the data, the site, the API document and a citation', async () => {
    const signals = await fetch(`${base}/api/signals.json`);
    assert.equal(signals.status, 200);
    assert.match(((await signals.json()) as { meta: { name: string } }).meta.name, /synthetic/i);
    const home = await fetch(`${base}/`);
    assert.equal(home.status, 200);
    const css = /href="(\/assets\/[^"]+\.css[^"]*)"/.exec(await home.text());
    assert.ok(css, 'the home page links its stylesheet');
    assert.equal((await fetch(`${base}${css[1]}`)).status, 200);
    const openapi = await fetch(`${base}/api/openapi.json`);
    assert.equal(((await openapi.json()) as { openapi: string }).openapi.slice(0, 2), '3.');
    const bibtex = await fetch(`${base}/api/cite/bibtex/paper`);
    assert.equal(bibtex.status, 200);
    assert.match(await bibtex.text(), /^@\w+\{/);
  });

  test('the bundled MCP stdio server answers initialize', async () => {
    const mcp = spawn(process.execPath, ['dist/cli/mcp.js'], {
      env: { ...process.env, SIGNAL_BASE_URL: base },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    mcp.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    mcp.stdin!.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      })}\n`,
    );
    const deadline = Date.now() + 20_000;
    while (!out.includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    mcp.kill();
    const answer = JSON.parse(out.split('\n')[0]!) as { result: { serverInfo: { name: string } } };
    assert.equal(answer.result.serverInfo.name, 'signal-service');
  });
});

/**
 * What a start loads: the code of rarely used routes and of optional integrations is loaded when first needed, not
 * by every start (each is tens of milliseconds of a start, see docs/benchmarks.md). Recorded with a
 * module-loading hook (test/helpers/module-recorder.mjs): bundled libraries are found by the source comments
 * esbuild writes into each chunk, libraries kept outside the bundle by their path.
 */
describe('the built bundle loads optional code on demand', () => {
  let dataDir: string;
  let recordFile: string;
  let bundle: Bundle | undefined;
  let base: string;

  /** Library name → whether a module of it has been loaded so far. */
  const loaded = (libraries: string[]): Record<string, boolean> => {
    const urls = fs.readFileSync(recordFile, 'utf8').split('\n').filter(Boolean);
    const files = urls.filter((u) => u.startsWith('file:')).map((u) => new URL(u).pathname);
    const bundled = files
      .filter((f) => f.startsWith(path.resolve('dist')))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    return Object.fromEntries(
      libraries.map((lib) => [
        lib,
        files.some((f) => f.includes(`/node_modules/${lib}/`)) || bundled.includes(`// node_modules/${lib}/`),
      ]),
    );
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signal-bundle-lazy-'));
    recordFile = path.join(dataDir, 'modules.txt');
    fs.writeFileSync(recordFile, '');
    bundle = await startBundle(
      {
        DATA_DIR: dataDir,
        MODULE_RECORD_FILE: recordFile,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        STRIPE_SECRET_KEY: undefined,
        SMTP_URL: undefined,
      },
      ['--import', path.resolve('test/helpers/module-recorder.mjs')],
    );
    base = bundle.base;
  });

  after(async () => {
    await bundle?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a start without Redis, Stripe or SMTP loads none of their clients, nor citation-js or badge-maker', async () => {
    assert.equal((await fetch(`${base}/api/signals.json`)).status, 200);
    const seen = loaded(['fastify', 'ioredis', 'stripe', 'nodemailer', '@citation-js/core', 'badge-maker']);
    assert.equal(seen.fastify, true, 'the recorder sees the bundled server itself');
    assert.deepEqual(seen, {
      fastify: true,
      ioredis: false,
      stripe: false,
      nodemailer: false,
      '@citation-js/core': false,
      'badge-maker': false,
    });
  });

  test('the first citation loads citation-js and the first badge loads badge-maker', async () => {
    const bibtex = await fetch(`${base}/api/cite/bibtex/paper`);
    assert.equal(bibtex.status, 200);
    assert.match(await bibtex.text(), /^@\w+\{/);
    const badge = await fetch(`${base}/api/badge/built-with/svg`);
    assert.equal(badge.status, 200);
    assert.match(await badge.text(), /^<svg[^>]*>.*built with.*Signal Service.*<\/svg>$/s);
    assert.deepEqual(loaded(['@citation-js/core', 'badge-maker']), { '@citation-js/core': true, 'badge-maker': true });
  });
});
