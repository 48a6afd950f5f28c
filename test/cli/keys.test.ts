import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

const CLI = path.resolve('src/cli/main.ts');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('signal-service keys (command line, beside a running server)', () => {
  let svc: TestApp;
  let env: Record<string, string>;

  const cli = (args: string[]): Promise<Result> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'keys', ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;
  const field = (text: string, name: string) => new RegExp(`^${name}: (\\S+)$`, 'm').exec(text)?.[1];
  const credits = async (key: string) =>
    (await (await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } })).json()) as {
      balance: number;
    };

  before(async () => {
    svc = await startTestApp();
    env = {
      DATA_DIR: svc.storage.dataDir,
      ...(svc.storage.databaseUrl ? { DATABASE_URL: svc.storage.databaseUrl } : {}),
    };
  });
  after(() => svc.close());

  test('create prints the key alone on the last stdout line, and the running server accepts it', async () => {
    const result = await cli(['create', '--credits', '25', '--email', 'buyer@example.org', '--label', 'first']);
    assert.equal(result.code, 0, result.stderr);
    const key = lastLine(result.stdout);
    assert.match(key, /^sigsk_[A-Za-z0-9_-]{43}$/);
    assert.equal((await credits(key)).balance, 25);
  });

  test('list shows fingerprints and balances, never a key', async () => {
    const created = await cli(['create', '--credits', '3', '--label', 'listed']);
    const key = lastLine(created.stdout);
    const listing = await cli(['list']);
    assert.equal(listing.code, 0, listing.stderr);
    const line = listing.stdout.split('\n').find((l) => l.includes(field(created.stdout, 'id')!))!;
    assert.ok(line.includes(field(created.stdout, 'fingerprint')!));
    assert.match(line, /\blisted\b/);
    assert.ok(!listing.stdout.includes(key.slice(6)));
  });

  test('grant adds credits to the key’s account', async () => {
    const created = await cli(['create', '--credits', '1']);
    const id = field(created.stdout, 'id')!;
    const result = await cli(['grant', id, '--credits', '40']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await credits(lastLine(created.stdout))).balance, 41);
  });

  test('revoke takes effect on the running server at once', async () => {
    const created = await cli(['create', '--credits', '5']);
    const key = lastLine(created.stdout);
    const result = await cli(['revoke', field(created.stdout, 'id')!]);
    assert.equal(result.code, 0, result.stderr);
    const res = await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 401);
  });

  test('bad arguments and unknown ids fail with a message', async () => {
    for (const args of [
      ['create'],
      ['create', '--credits', '-1'],
      ['create', '--credits', '2.5'],
      ['create', '--credits', '1', '--email', 'nope'],
      ['grant', 'key_x', '--credits', '0'],
    ]) {
      const result = await cli(args);
      assert.notEqual(result.code, 0, args.join(' '));
      assert.ok(result.stderr.length > 0, args.join(' '));
    }
    assert.equal((await cli(['revoke', 'key_unknown'])).code, 1);
    assert.equal((await cli(['grant', 'key_unknown', '--credits', '3'])).code, 1);
  });
});
