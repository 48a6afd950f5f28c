import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestStorage, type TestStorage } from '../helpers/database.js';
import { bareClones, buildRepos, tempDir } from '../helpers/git-scenario.js';
import { STEPS } from './collect/git/scenario.js';

const CLI = path.resolve('src/cli/main.ts');

function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('signal-service pipeline run --source git (command line)', () => {
  let storage: TestStorage;
  let tmp: string;
  let env: Record<string, string>;
  let watchlist: string;
  before(async () => {
    tmp = await tempDir('cli-git');
    await bareClones(await buildRepos(path.join(tmp, 'src'), STEPS), path.join(tmp, 'clones'), 'gitco');
    storage = await createTestStorage({ contents: 'migrated' });
    watchlist = path.join(tmp, 'watchlist.yaml');
    await fs.writeFile(watchlist, 'orgs:\n  - login: gitco\n    name: Gitco\n    sector: data-infrastructure\n');
    // No GITHUB_TOKEN: the git source needs none.
    env = { DATA_DIR: storage.dataDir, ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}) };
  });
  after(async () => {
    await storage.cleanup();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('a past week is collected from clones without a token or a request', async () => {
    const res = await cli(
      [
        'pipeline',
        'run',
        '--period',
        '2026-w10',
        '--watchlist',
        watchlist,
        '--source',
        'git',
        '--clones',
        path.join(tmp, 'clones'),
        '--dry-run',
      ],
      env,
    );
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^Run \d+ · 2026-w10 · complete \(dry run\)$/m);
    assert.match(res.stdout, /organisations {2}1 collected/);
    assert.match(res.stdout, /requests {7}0 /);
    assert.match(res.stderr, /from the git clones in /);
  });

  test('a clones directory that does not exist is refused with what to do', async () => {
    const res = await cli(
      [
        'pipeline',
        'run',
        '--period',
        '2026-w10',
        '--watchlist',
        watchlist,
        '--source',
        'git',
        '--clones',
        path.join(tmp, 'nowhere'),
      ],
      env,
    );
    assert.equal(res.code, 2);
    assert.match(
      res.stderr,
      /the clones directory .*nowhere does not exist: clone the organisations' repositories into it/,
    );
  });
});
