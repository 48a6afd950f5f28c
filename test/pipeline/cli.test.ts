import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestStorage, type TestStorage } from '../helpers/database.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { acmeOrg, quietOrg } from './fixtures.js';

const CLI = path.resolve('src/cli/main.ts');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<Result> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

function cli(args: string[], env: Record<string, string>): Promise<Result> {
  return start(args, env).done;
}

describe('signal-service pipeline (command line)', () => {
  let fake: FakeGitHub;
  let storage: TestStorage;
  let env: Record<string, string>;
  let watchlist: string;

  before(async () => {
    fake = await FakeGitHub.start({
      orgs: [acmeOrg(), quietOrg(), ...Array.from({ length: 6 }, (_, i) => quietOrg(`kill-${i}`))],
    });
    storage = await createTestStorage({ contents: 'migrated' });
    watchlist = path.join(storage.dataDir, 'watchlist.yaml');
    await fs.writeFile(
      watchlist,
      'orgs:\n  - login: acme-labs\n    name: Acme Labs\n    sector: data-infrastructure\n  - login: quiet-co\n    name: Quiet Co\n    sector: healthcare\n',
    );
    env = {
      DATA_DIR: storage.dataDir,
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
      GITHUB_TOKEN: fake.token,
      GITHUB_API_URL: fake.url,
      GITHUB_QUERY_INTERVAL_MS: '0',
      GITHUB_RETRY_BASE_MS: '2',
    };
  });
  after(async () => {
    await storage.cleanup();
    await fake.close();
  });

  test('without GITHUB_TOKEN the run stops at once with a message saying how to get one', async () => {
    const { GITHUB_TOKEN: _unused, ...noToken } = env;
    const res = await cli(['pipeline', 'run', '--period', '2026-w10', '--watchlist', watchlist], noToken);
    assert.equal(res.code, 2);
    assert.match(
      res.stderr,
      /signal-service pipeline: GITHUB_TOKEN is not set: create a personal access token at https:\/\/github\.com\/settings\/tokens/,
    );
  });

  test('a wrong token stops the run with the reason and exit code 3', async () => {
    const res = await cli(['pipeline', 'run', '--period', '2026-w09', '--watchlist', watchlist], {
      ...env,
      GITHUB_TOKEN: 'not-the-token',
    });
    assert.equal(res.code, 3);
    assert.match(res.stderr, /GitHub rejected the token \(401 Bad credentials\): check GITHUB_TOKEN/);
  });

  test('an unknown sector is refused before anything runs', async () => {
    const res = await cli(['pipeline', 'run', '--sector', 'fintech', '--watchlist', watchlist], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /unknown sector "fintech"/);
  });

  test('run publishes the week and prints a summary; status and rebuild work from the stored activity', async () => {
    const run = await cli(['pipeline', 'run', '--period', '2026-w10', '--watchlist', watchlist], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Run \d+ · 2026-w10 · published$/m);
    assert.match(run.stdout, /organisations {2}2 collected \(2 in the run\)/);
    // Per organisation: its probe and its share of the GraphQL query; Acme, pushed since the week, also its list of
    // pushes and history from the tip then; both, the look-back and the files each window changed.
    assert.match(run.stdout, /requests {7}11 \(5\.50 per organisation\), 0 answered 304 Not Modified/);
    // Acme's one newcomer made a one-off contribution: no startup has evidence for its type, so nothing trends.
    assert.match(run.stdout, /trending {7}none: no startup above the activity floor has evidence/);
    assert.match(run.stderr, /2026-w10 .* 2\/2 orgs \| 11 requests/);

    const status = await cli(['pipeline', 'status'], env);
    assert.equal(status.code, 0);
    assert.match(status.stdout, /^Serving 2026-w10 \(Public GitHub activity of 2 tracked organisations; 2 startups;/m);
    assert.match(status.stdout, /#\d+ {2}2026-w10 {2}published/);

    fake.resetCounts();
    const rebuild = await cli(['pipeline', 'rebuild', '--period', '2026-w09'], env);
    assert.equal(rebuild.code, 0, rebuild.stderr);
    assert.match(
      rebuild.stdout,
      /^Rebuilt and published 2026-w09 from the activity stored by run \d+ \(2026-w10\): 2 startups, no GitHub request/,
    );
    assert.equal(fake.counts.total, 0);
  });

  test('a killed run is resumed by the next run: the same run finishes and every organisation is published once', async () => {
    const big = path.join(storage.dataDir, 'big.yaml');
    await fs.writeFile(
      big,
      `orgs:\n${Array.from({ length: 6 }, (_, i) => `  - login: kill-${i}\n    name: Kill ${i}\n    sector: healthcare\n`).join('')}`,
    );
    const slowEnv = { ...env, GITHUB_ORGS_PER_QUERY: '2', PIPELINE_CONCURRENCY: '1' };
    fake.resetCounts();
    fake.delayMs = 150;
    const first = start(['pipeline', 'run', '--period', '2026-w08', '--watchlist', big], slowEnv);
    for (let i = 0; i < 1500 && fake.orgReads.size < 4; i++) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    const killed = await first.done;
    assert.equal(killed.code, null);
    fake.delayMs = 0;

    const second = await cli(['pipeline', 'run', '--period', '2026-w08', '--watchlist', big], slowEnv);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /resuming run \d+ for 2026-w08/);
    assert.match(second.stdout, /organisations {2}6 collected \(6 in the run\)/);
    const reads = [...fake.orgReads.values()].reduce((a, b) => a + b, 0);
    // Organisations recorded before the kill are not read again; at most the batch in flight is.
    assert.ok(reads >= 6 && reads <= 8, `GraphQL reads ${reads}`);
  });
});

describe('signal-service pipeline run --backfill', () => {
  let fake: FakeGitHub;
  let storage: TestStorage;
  let env: Record<string, string>;
  let watchlist: string;

  before(async () => {
    fake = await FakeGitHub.start({ orgs: [acmeOrg(), quietOrg()] });
    storage = await createTestStorage({ contents: 'migrated' });
    watchlist = path.join(storage.dataDir, 'watchlist.yaml');
    await fs.writeFile(
      watchlist,
      'orgs:\n  - login: acme-labs\n    name: Acme Labs\n    sector: data-infrastructure\n  - login: quiet-co\n    name: Quiet Co\n    sector: healthcare\n',
    );
    env = {
      DATA_DIR: storage.dataDir,
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
      GITHUB_TOKEN: fake.token,
      GITHUB_API_URL: fake.url,
      GITHUB_QUERY_INTERVAL_MS: '0',
      GITHUB_RETRY_BASE_MS: '2',
    };
  });
  after(async () => {
    await storage.cleanup();
    await fake.close();
  });

  test('publishes the N weeks ending with --period, oldest first, and states the requests it spent', async () => {
    fake.resetCounts();
    const res = await cli(
      ['pipeline', 'run', '--backfill', '3', '--period', '2026-w07', '--watchlist', watchlist],
      env,
    );
    assert.equal(res.code, 0, res.stderr);
    const order = [...res.stdout.matchAll(/^Run \d+ · (2026-w\d\d) · published$/gm)].map((m) => m[1]);
    assert.deepEqual(order, ['2026-w05', '2026-w06', '2026-w07']);
    const summary = /^Backfill 2026-w05 – 2026-w07: 3 week\(s\) published, 0 already published; (\d+) requests/m.exec(
      res.stdout,
    );
    assert.ok(summary, res.stdout);
    assert.equal(Number(summary[1]), fake.counts.total);
  });

  test('a longer backfill over published weeks collects only the missing ones and keeps the rest', async () => {
    fake.resetCounts();
    const res = await cli(
      ['pipeline', 'run', '--backfill', '4', '--period', '2026-w07', '--watchlist', watchlist],
      env,
    );
    assert.equal(res.code, 0, res.stderr);
    const order = [...res.stdout.matchAll(/^Run \d+ · (2026-w\d\d) · published$/gm)].map((m) => m[1]);
    assert.deepEqual(order, ['2026-w04']);
    assert.match(res.stderr, /2026-w06 is already published from GitHub activity .*: kept/);
    assert.match(res.stdout, /^Backfill 2026-w04 – 2026-w07: 1 week\(s\) published, 3 already published;/m);
    const status = await cli(['pipeline', 'status'], env);
    assert.match(status.stdout, /^Serving 2026-w07 /m);
  });

  test('is refused with --sector, and beyond 52 weeks, before anything runs', async () => {
    fake.resetCounts();
    const sector = await cli(
      ['pipeline', 'run', '--backfill', '2', '--sector', 'healthcare', '--watchlist', watchlist],
      env,
    );
    assert.equal(sector.code, 2);
    assert.match(sector.stderr, /--backfill collects every sector of each week; run it without --sector/);
    const long = await cli(['pipeline', 'run', '--backfill', '53', '--watchlist', watchlist], env);
    assert.equal(long.code, 1);
    assert.match(long.stderr, /option '--backfill <weeks>' argument '53' is invalid\. at most 52 weeks/);
    assert.equal(fake.counts.total, 0);
  });
});
