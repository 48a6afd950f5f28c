import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { parsePeriodSlug, shiftPeriod } from '../src/domain/periods.js';
import { DEMO_PERIODS } from '../src/pipeline/demo/seed.js';
import { openStore } from '../src/store/database.js';
import { countPeriods } from '../src/store/periods.js';
import { createTestStorage } from './helpers/database.js';
import { serveChild } from './helpers/serve-child.js';
import { startTestService, type TestService } from './helpers/service.js';

const run = promisify(execFile);

describe('a running service picks up newly published periods', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  test('a period published by another process is served without a restart and without a failed request', async () => {
    const current = ((await (await svc.get('/api/signals.json')).json()) as any).meta.period.slug as string;
    const next = shiftPeriod(parsePeriodSlug(current), 1).slug;
    let failures = 0;
    let requests = 0;
    let stop = false;
    const hammer = (async () => {
      while (!stop) {
        const r = await svc.get('/api/signals.json');
        await r.arrayBuffer();
        requests++;
        if (r.status !== 200) failures++;
      }
    })();
    await run(process.execPath, ['--import', 'tsx', 'test/helpers/publish-demo-period.ts', next, '40'], {
      env: { ...process.env, DATA_DIR: svc.config.database.dataDir, DATABASE_URL: svc.config.database.url ?? '' },
    });
    let served = current;
    for (let i = 0; i < 100 && served !== next; i++) {
      await new Promise((r) => setTimeout(r, 100));
      served = ((await (await svc.get('/api/signals.json')).json()) as any).meta.period.slug;
    }
    stop = true;
    await hammer;
    assert.equal(served, next);
    assert.ok(requests > 0);
    assert.equal(failures, 0);
    const meta = ((await (await svc.get('/api/signals.json')).json()) as any).meta;
    assert.equal(meta.totalStartups, 40);
  });
});

describe('graceful shutdown', () => {
  test('SIGTERM lets an in-flight response finish, then the process exits 0', async () => {
    // The demo data a first start stores, prepared: this start serves it at once instead of storing it.
    const storage = await createTestStorage({ contents: 'demo' });
    const { child, base } = await serveChild({ DATA_DIR: storage.dataDir, DATABASE_URL: storage.databaseUrl ?? '' });
    try {
      // Uncompressed: the long answer (6 MB) is the point; fetch's gzip decoding also reports a body complete to its
      // last byte as 'terminated' when the server closes the connection right after it.
      const res = await fetch(`${base}/api/dataset.jsonl`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(res.status, 200);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const text = await res.text();
      const lines = text.trimEnd().split('\n');
      assert.ok(lines.length >= 300 * 26, `got ${lines.length} lines`);
      assert.doesNotThrow(() => JSON.parse(lines.at(-1)!));
      const [code] = await exited;
      assert.equal(code, 0);
      await assert.rejects(fetch(`${base}/healthz`));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await storage.cleanup();
    }
  });

  test('SIGTERM while a first start makes the earlier demo weeks exits 0 and leaves the store without part of them', async () => {
    const storage = await createTestStorage({ forceEmbedded: true });
    const { child, stderr } = await serveChild({ DATA_DIR: storage.dataDir, DATABASE_URL: '' });
    try {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      assert.equal(code, 0);
      assert.doesNotMatch(stderr(), /"level":(50|60)/);
      const store = await openStore({ dataDir: storage.dataDir, databaseUrl: undefined, poolSize: 1 });
      try {
        assert.ok([0, DEMO_PERIODS].includes(await countPeriods(store.db)));
      } finally {
        await store.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await storage.cleanup();
    }
  });
});
