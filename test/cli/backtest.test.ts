import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import YAML from 'yaml';
import { DEMO_PERIODS } from '../../src/pipeline/demo/seed.js';
import { BacktestResult } from '../../src/schemas/backtest.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const CLI = path.resolve('src/cli/main.ts');

/** The command over the demo's stored weeks, with outcomes planted for a few of its fictional startups. */
describe('signal-service backtest (command line)', () => {
  let svc: TestApp;
  let dir: string;
  let run: { code: number | null; stdout: string; stderr: string };
  let result: BacktestResult;

  before(async () => {
    svc = await startTestApp({}, { store: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'backtest-'));
    const lines = (await (await svc.get('/api/dataset.jsonl')).text()).trim().split('\n');
    const first = JSON.parse(lines[0]!) as { period: string };
    const logins = lines
      .map((l) => JSON.parse(l) as { period: string; org: string })
      .filter((r) => r.period === first.period)
      .map((r) => r.org);
    const startups = logins.map((login, i) => ({
      login,
      searchedOn: '2026-11-30',
      searched: ['planted for the test'],
      result: i % 4 === 0 ? 'found' : 'none-found',
      events:
        i % 4 === 0
          ? [
              {
                announced: '2026-07-01',
                kind: 'Seed',
                amount: null,
                source: 'https://example.com/seed',
                publisher: 'Example',
                sourceKind: 'company',
              },
            ]
          : [],
    }));
    await writeFile(path.join(dir, 'outcomes.yaml'), YAML.stringify({ startups }));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'silent',
      DATA_DIR: svc.storage.dataDir,
      ...(svc.storage.databaseUrl ? { DATABASE_URL: svc.storage.databaseUrl } : {}),
    };
    const args = ['backtest', '--outcomes', path.join(dir, 'outcomes.yaml'), '--output', path.join(dir, 'r.json')];
    run = await new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args, '--replicates', '50'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    if (run.code === 0) result = BacktestResult.parse(JSON.parse(await readFile(path.join(dir, 'r.json'), 'utf8')));
  });
  after(async () => {
    await svc.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('it exits 0 and writes a result the schema accepts', () => {
    assert.equal(run.code, 0, run.stderr);
    assert.ok(result);
  });

  test('its result covers every stored week and names the history as synthetic', () => {
    assert.equal(result.coverage.history.weeks, DEMO_PERIODS);
    assert.equal(result.coverage.history.synthetic, true);
  });

  test('its summary says the figures are of synthetic demo data', () => {
    assert.match(run.stdout.split('\n')[0]!, /synthetic demo data/);
  });

  test('it tests the startups whose outcomes were searched', () => {
    assert.ok(result.coverage.outcomes.tested > 0);
    assert.equal(
      result.coverage.outcomes.notSearched,
      result.coverage.history.startups - result.coverage.outcomes.searched,
    );
  });
});
