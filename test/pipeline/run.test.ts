import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { parsePeriodSlug } from '../../src/domain/periods.js';
import { SIGNAL_RULE } from '../../src/domain/rules.js';
import { GitHubAuthError } from '../../src/github/client.js';
import { seedDemoIfEmpty } from '../../src/pipeline/demo/seed.js';
import { executeRun } from '../../src/pipeline/queue/index.js';
import {
  createGitHubClient,
  openPipelineStore,
  PipelineError,
  prepareRun,
  rebuildPeriod,
  type PipelineContext,
  type RunRequest,
} from '../../src/pipeline/run.js';
import type { WatchlistEntry } from '../../src/domain/records.js';
import { migrateToLatest, type Store } from '../../src/store/database.js';
import { listPeriods, periodStartups } from '../../src/store/periods.js';
import { getRun, pipelineDb, statusCounts } from '../../src/store/pipeline.js';
import { DatasetRecord } from '../../src/schemas/signals.js';
import { gunzipSync } from 'node:zlib';
import { datasetExport } from '../../src/snapshot/history.js';
import { loadSnapshot } from '../../src/snapshot/load.js';
import { signalsCsv } from '../../src/snapshot/snapshot.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { acmeEntry, acmeOrg, NOW, PERIOD, quietEntry, quietOrg } from './fixtures.js';

const W09 = parsePeriodSlug('2026-w09');

interface Harness {
  ctx: PipelineContext;
  store: Store;
  storage: TestStorage;
  close(): Promise<void>;
}

async function harness(fake: FakeGitHub, env: Record<string, string> = {}): Promise<Harness> {
  const storage = await createTestStorage({ contents: 'migrated' });
  const config = loadConfig({
    DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    GITHUB_TOKEN: fake.token,
    GITHUB_API_URL: fake.url,
    GITHUB_QUERY_INTERVAL_MS: '0',
    GITHUB_RETRY_BASE_MS: '2',
    GITHUB_ORGS_PER_QUERY: '2',
    PIPELINE_CONCURRENCY: '2',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const store = await openPipelineStore(config.database);
  await migrateToLatest(store.db);
  const ctx: PipelineContext = { db: store.db, config, client: createGitHubClient(config.github), now: () => NOW };
  return {
    ctx,
    store,
    storage,
    async close() {
      await store.close();
      await storage.cleanup();
    },
  };
}

async function run(
  ctx: PipelineContext,
  request: Partial<RunRequest> & { entries: WatchlistEntry[] },
  signal?: AbortSignal,
) {
  const prepared = await prepareRun(ctx, { period: PERIOD, dryRun: false, fullRefresh: false, ...request });
  const result = await executeRun(ctx, prepared.run.id, { signal });
  return { prepared, result };
}

function orgs(n: number) {
  return Array.from({ length: n }, (_, i) => quietOrg(`team-${i}`));
}
function entries(n: number): WatchlistEntry[] {
  return Array.from({ length: n }, (_, i) => ({ ...quietEntry(`team-${i}`), displayName: `Team ${i}` }));
}

describe('pipeline runs over the store', () => {
  let fake: FakeGitHub;
  before(async () => {
    fake = await FakeGitHub.start({ orgs: [acmeOrg(), quietOrg(), ...orgs(10)] });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.resetCounts();
    fake.clearFaults();
    fake.delayMs = 0;
  });

  test('a run publishes the week as a github dataset with the hand-computed startup, replacing the demo data', async () => {
    const h = await harness(fake);
    try {
      await seedDemoIfEmpty(h.store.db, { seed: 't', startups: 15, periods: 3, now: NOW });
      const { result } = await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      assert.equal(result.state, 'published');
      const periods = await listPeriods(h.store.db);
      assert.deepEqual(
        periods.map((p) => [p.slug, p.dataset, p.startups_tracked, p.dataset_name]),
        [['2026-w10', 'github', 2, 'Public GitHub activity of 2 tracked organisations']],
      );
      const rows = await periodStartups(h.store.db, '2026-w10');
      assert.deepEqual(
        rows.map((r) => [r.org_login, r.rank_overall]),
        [
          // Neither has evidence for any signal type (acme's one newcomer made a one-off contribution): published in
          // their sectors, not ranked across them.
          ['acme-labs', null],
          ['quiet-co', null],
        ],
      );
      assert.deepEqual(
        {
          ...(rows[0]!.startup as object),
        },
        {
          name: 'Acme Labs',
          description: 'Developer tools',
          stage: 'Pre-seed',
          geography: 'Germany',
          commitVelocity14d: 23,
          commitVelocityChange: '+65%',
          contributors: 3,
          contributorGrowth: '+33%',
          newRepos: 1,
          signalType: 'Framework migration',
          githubUrl: 'https://github.com/acme-labs',
          websiteUrl: 'https://acme.example/',
          linkedinUrl: 'https://www.linkedin.com/search/results/companies/?keywords=Acme%20Labs',
        },
      );
      const evidence = (rows[0]!.metrics as { signalEvidence: { rule: string; strength: string; summary: string } })
        .signalEvidence;
      assert.deepEqual([evidence.rule, evidence.strength], [SIGNAL_RULE, 'none']);
      assert.match(evidence.summary, /^No clear signal this week/);
    } finally {
      await h.close();
    }
  });

  test('a week collected before evidence keeps its published type when rebuilt, marked with the older rule', async () => {
    const h = await harness(fake);
    try {
      await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      // Make the stored activity look like activity collected before this change: no version, no evidence.
      const db = pipelineDb(h.store.db);
      for (const row of await db.selectFrom('github_activity').select(['digest', 'activity']).execute()) {
        const old = {
          profile: row.activity.profile,
          repos: row.activity.repos.map((r) => ({
            name: r.name,
            fork: r.fork,
            createdAt: r.createdAt,
            language: r.language,
          })),
          commits: row.activity.commits,
        };
        await db
          .updateTable('github_activity')
          .set({ activity: JSON.stringify(old) })
          .where('digest', '=', row.digest)
          .execute();
      }
      await rebuildPeriod(h.ctx, PERIOD);
      const rows = await periodStartups(h.store.db, '2026-w10');
      const acme = rows.find((r) => r.org_login === 'acme-labs')!;
      // The legacy rule: growth +33% but 1 more person, 1 new repository, Rust new → Framework migration.
      assert.equal((acme.startup as { signalType: string }).signalType, 'Framework migration');
      assert.deepEqual((acme.metrics as { signalEvidence: unknown }).signalEvidence, { rule: 'activity-v1' });
    } finally {
      await h.close();
    }
  });

  test('a re-run with nothing changed answers 304 for the organisation not pushed since the week, re-reads the one pushed since, and publishes the same content', async () => {
    const h = await harness(fake);
    try {
      await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      const before = (await listPeriods(h.store.db))[0]!;
      fake.resetCounts();
      const { prepared, result } = await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      assert.equal(result.state, 'published');
      // Acme has commits after the period's end: what it held at the end cannot be vouched for by a 304.
      assert.equal(fake.counts.notModified, 1);
      const runRow = (await getRun(h.store.db, prepared.run.id))!;
      assert.equal(Number(runRow.not_modified), 1);
      const counts = await statusCounts(h.store.db, prepared.run.id);
      assert.deepEqual([counts.unchanged, counts.collected], [1, 1]);
      assert.equal((await listPeriods(h.store.db))[0]!.content_hash, before.content_hash);
    } finally {
      await h.close();
    }
  });

  test('an interrupted run resumes with the pending organisations only and reads each organisation once', async () => {
    const h = await harness(fake, { PIPELINE_CONCURRENCY: '1' });
    try {
      fake.delayMs = 40;
      const controller = new AbortController();
      const prepared = await prepareRun(h.ctx, {
        period: PERIOD,
        entries: entries(6),
        dryRun: false,
        fullRefresh: false,
      });
      const watcher = setInterval(() => {
        statusCounts(h.store.db, prepared.run.id).then(
          (c) => c.pending < 6 && controller.abort(),
          () => {},
        );
      }, 10);
      const first = await executeRun(h.ctx, prepared.run.id, { signal: controller.signal });
      clearInterval(watcher);
      assert.equal(first.state, 'collecting');
      const midway = await statusCounts(h.store.db, prepared.run.id);
      assert.ok(midway.pending > 0 && midway.pending < 6, `pending after the stop: ${midway.pending}`);
      assert.equal((await listPeriods(h.store.db)).length, 0);

      fake.delayMs = 0;
      const resumed = await prepareRun(h.ctx, {
        period: PERIOD,
        entries: entries(6),
        dryRun: false,
        fullRefresh: false,
      });
      assert.equal(resumed.resumed, true);
      assert.equal(resumed.run.id, prepared.run.id);
      const second = await executeRun(h.ctx, resumed.run.id);
      assert.equal(second.state, 'published');
      assert.deepEqual(
        [...fake.orgReads].sort(),
        Array.from({ length: 6 }, (_, i) => [`team-${i}`, 1]),
      );
      const rows = await periodStartups(h.store.db, '2026-w10');
      assert.equal(rows.length, 6);
      assert.equal(new Set(rows.map((r) => r.org_login)).size, 6);
    } finally {
      await h.close();
    }
  });

  test('with GitHub down nothing is published and the previously published week stays current', async () => {
    const h = await harness(fake);
    try {
      const ok = await run(h.ctx, { period: W09, entries: [acmeEntry, quietEntry()] });
      assert.equal(ok.result.state, 'published');
      const before = await listPeriods(h.store.db);
      fake.injectFault({
        match: (r) => r.kind === 'graphql',
        status: 502,
        body: { message: 'Bad Gateway' },
        times: 1000,
      });
      const down = await run(h.ctx, { entries: [acmeEntry, quietEntry()], fullRefresh: true });
      assert.equal(down.result.state, 'incomplete');
      const runRow = (await getRun(h.store.db, down.prepared.run.id))!;
      assert.equal(runRow.status, 'incomplete');
      assert.equal(runRow.attempt, 3);
      assert.match(runRow.message!, /^not published: 2 organisation\(s\) failed after 3 attempt\(s\)/);
      const failed = await pipelineDb(h.store.db)
        .selectFrom('pipeline_run_orgs')
        .select(['login', 'status', 'message'])
        .where('run_id', '=', down.prepared.run.id)
        .orderBy('login')
        .execute();
      assert.deepEqual(
        failed.map((f) => f.status),
        ['failed', 'failed'],
      );
      assert.match(failed[0]!.message!, /GitHub answered 502 Bad Gateway after retries/);
      assert.deepEqual(await listPeriods(h.store.db), before);
    } finally {
      await h.close();
    }
  });

  test('a partial GraphQL answer is published with the rest of the week, its records saying partial and what was missing', async () => {
    const h = await harness(fake, { GITHUB_ORGS_PER_QUERY: '1' });
    try {
      // Acme's query: its repository `api` answered as a null node, with the error GitHub puts beside the data.
      const carol = { name: 'Carol', email: 'carol@acme.example', user: null };
      fake.injectFault({
        match: (r) => r.kind === 'graphql' && r.body.includes('"acme-labs"'),
        status: 200,
        body: {
          data: {
            o0: {
              login: 'acme-labs',
              name: 'Acme Labs',
              description: 'Developer tools',
              location: 'Berlin, Germany',
              websiteUrl: 'acme.example',
              repositories: {
                pageInfo: { hasNextPage: false, endCursor: null },
                nodes: [
                  null,
                  {
                    name: 'engine',
                    isFork: false,
                    createdAt: '2026-02-27T12:00:00Z',
                    pushedAt: '2026-03-03T10:04:00Z',
                    primaryLanguage: { name: 'Rust' },
                    defaultBranchRef: {
                      target: {
                        history: {
                          pageInfo: { hasNextPage: false, endCursor: null },
                          nodes: Array.from({ length: 5 }, (_, i) => ({
                            oid: `c${i}`,
                            committedDate: `2026-03-03T10:0${i}:00Z`,
                            author: carol,
                          })),
                        },
                      },
                    },
                  },
                ],
              },
            },
          },
          errors: [
            { type: 'SERVICE_UNAVAILABLE', path: ['o0', 'repositories', 'nodes', 0], message: 'Something went wrong' },
          ],
        },
      });
      const { prepared, result } = await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      assert.equal(result.state, 'published');
      assert.equal((await statusCounts(h.store.db, prepared.run.id)).partial, 1);

      const rows = await periodStartups(h.store.db, '2026-w10');
      const acmeRow = rows.find((r) => r.org_login === 'acme-labs')!;
      const quietRow = rows.find((r) => r.org_login === 'quiet-co')!;
      assert.equal(acmeRow.collection, 'partial');
      assert.match(
        acmeRow.collection_note!,
        /1 repository was missing from GitHub's answer \(null nodes\) and not counted/,
      );
      assert.match(acmeRow.collection_note!, /repositories\.nodes\.0: Something went wrong/);
      assert.equal((acmeRow.startup as { commitVelocity14d: number }).commitVelocity14d, 5, 'what GitHub gave is kept');
      assert.equal(quietRow.collection, 'complete');
      assert.equal(quietRow.collection_note, null);

      // The dataset export: every line says it, and validates against the published schema.
      const snapshot = (await loadSnapshot(h.store.db, 'https://signals.test'))!;
      const lines = gunzipSync((await datasetExport(snapshot)).gzip)
        .toString()
        .trim()
        .split('\n')
        .map((l) => DatasetRecord.parse(JSON.parse(l)));
      const acme = lines.find((l) => l.org === 'acme-labs')!;
      const quiet = lines.find((l) => l.org === 'quiet-co')!;
      assert.equal(acme.collection, 'partial');
      assert.equal(acme.collectionNote, acmeRow.collection_note);
      assert.equal(quiet.collection, 'complete');
      assert.equal(quiet.collectionNote, null);

      // The CSV: the two columns before the stage's source (Quiet Co's watchlist entry states its stage).
      const [header, ...csvRows] = signalsCsv(snapshot).body.toString().split('\r\n');
      assert.ok(header!.endsWith(',collection,collectionNote,stageSource'), header);
      const acmeCsv = csvRows.find((r) => r.includes('https://github.com/acme-labs'))!;
      const quietCsv = csvRows.find((r) => r.includes('https://github.com/quiet-co'))!;
      assert.ok(acmeCsv.endsWith(`,partial,${acmeRow.collection_note},estimated`), acmeCsv);
      assert.ok(quietCsv.endsWith(',complete,,watchlist'), quietCsv);

      // The next run reads the partial organisation again (no 304 reuse of partial activity) and publishes it whole.
      fake.resetCounts();
      const again = await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      assert.equal(again.result.state, 'published');
      const counts = await statusCounts(h.store.db, again.prepared.run.id);
      assert.deepEqual([counts.collected, counts.unchanged, counts.partial], [1, 1, 0]);
      const healed = (await periodStartups(h.store.db, '2026-w10')).find((r) => r.org_login === 'acme-labs')!;
      assert.equal(healed.collection, 'complete');
      assert.equal(healed.collection_note, null);
      assert.equal((healed.startup as { commitVelocity14d: number }).commitVelocity14d, 23);
    } finally {
      await h.close();
    }
  });

  test('one organisation that keeps failing is left out and the week is published with the others', async () => {
    const h = await harness(fake, { GITHUB_ORGS_PER_QUERY: '1' });
    try {
      fake.injectFault({
        match: (r) => r.kind === 'graphql' && r.body.includes('team-3"'),
        status: 502,
        body: { message: 'Bad Gateway' },
        times: 1000,
      });
      const { prepared, result } = await run(h.ctx, { entries: entries(10) });
      assert.equal(result.state, 'published');
      const rows = await periodStartups(h.store.db, '2026-w10');
      assert.deepEqual(
        rows.map((r) => r.org_login).sort(),
        entries(10)
          .map((e) => e.login)
          .filter((l) => l !== 'team-3')
          .sort(),
      );
      const runRow = (await getRun(h.store.db, prepared.run.id))!;
      assert.match(runRow.message!, /1 organisation\(s\) that failed after 3 attempt\(s\) are left out of this week/);
    } finally {
      await h.close();
    }
  });

  test('a stopped incomplete run resumes once GitHub is back and then publishes', async () => {
    const h = await harness(fake);
    try {
      fake.injectFault({ match: (r) => r.kind === 'graphql', status: 503, times: 1000 });
      const down = await run(h.ctx, { entries: [acmeEntry] });
      assert.equal(down.result.state, 'incomplete');
      fake.clearFaults();
      const again = await run(h.ctx, { entries: [acmeEntry] });
      assert.equal(again.prepared.resumed, true);
      assert.equal(again.prepared.run.id, down.prepared.run.id);
      assert.equal(again.result.state, 'published');
    } finally {
      await h.close();
    }
  });

  test('an organisation that vanished is recorded as not found and the others are published', async () => {
    const h = await harness(fake);
    try {
      const { prepared, result } = await run(h.ctx, {
        entries: [acmeEntry, { login: 'gone-org', displayName: 'Gone', sector: 'gaming' }],
      });
      assert.equal(result.state, 'published');
      assert.equal((await periodStartups(h.store.db, '2026-w10')).length, 1);
      const row = await pipelineDb(h.store.db)
        .selectFrom('pipeline_run_orgs')
        .select(['status', 'message'])
        .where('run_id', '=', prepared.run.id)
        .where('login', '=', 'gone-org')
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'not_found');
      assert.match(row.message!, /^GitHub has no public organization "gone-org" \(404\)/);
    } finally {
      await h.close();
    }
  });

  test('a rejected token stops the run as incomplete with the reason, and the run resumes once it is fixed', async () => {
    const h = await harness(fake);
    try {
      const badConfig = { ...h.ctx.config, github: { ...h.ctx.config.github, token: 'wrong-token' } };
      const badCtx: PipelineContext = { ...h.ctx, config: badConfig, client: createGitHubClient(badConfig.github) };
      await assert.rejects(run(badCtx, { entries: [acmeEntry, quietEntry()] }), GitHubAuthError);
      const stopped = (await pipelineDb(h.store.db).selectFrom('pipeline_runs').selectAll().executeTakeFirstOrThrow())!;
      assert.equal(stopped.status, 'incomplete');
      assert.match(stopped.message!, /^GitHub rejected the token \(401 Bad credentials\)/);
      const fixed = await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      assert.equal(fixed.prepared.run.id, stopped.id);
      assert.equal(fixed.result.state, 'published');
    } finally {
      await h.close();
    }
  });

  test('a dry run computes the week and publishes nothing', async () => {
    const h = await harness(fake);
    try {
      const { result } = await run(h.ctx, { entries: [acmeEntry], dryRun: true });
      assert.equal(result.state, 'complete');
      assert.equal((await listPeriods(h.store.db)).length, 0);
    } finally {
      await h.close();
    }
  });

  test('rebuild recomputes a week from stored activity with no GitHub request and the same startups', async () => {
    const h = await harness(fake);
    try {
      await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      const before = await periodStartups(h.store.db, '2026-w10');
      fake.resetCounts();
      const rebuilt = await rebuildPeriod(h.ctx, PERIOD);
      assert.equal(fake.counts.total, 0);
      assert.equal(rebuilt.summary.startups, 2);
      assert.deepEqual(await periodStartups(h.store.db, '2026-w10'), before);
    } finally {
      await h.close();
    }
  });

  test('rebuild can publish the week before from a run, since a run collects 35 days', async () => {
    const h = await harness(fake);
    try {
      await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      fake.resetCounts();
      await rebuildPeriod(h.ctx, W09);
      assert.equal(fake.counts.total, 0);
      assert.deepEqual(
        (await listPeriods(h.store.db)).map((p) => p.slug),
        ['2026-w09', '2026-w10'],
      );
    } finally {
      await h.close();
    }
  });

  test('rebuild of a week no stored activity covers says which run to make', async () => {
    const h = await harness(fake);
    try {
      await run(h.ctx, { entries: [acmeEntry] });
      await assert.rejects(
        rebuildPeriod(h.ctx, parsePeriodSlug('2026-w05')),
        (err: unknown) =>
          err instanceof PipelineError &&
          err.message ===
            'no stored activity covers 2026-w05 (its windows need commits from 2026-01-05 to 2026-02-02): collect it with `signal-service pipeline run --period 2026-w05`',
      );
    } finally {
      await h.close();
    }
  });

  test('--sector collects that sector only and carries the others from stored activity', async () => {
    const h = await harness(fake);
    try {
      await run(h.ctx, { entries: [acmeEntry, quietEntry()] });
      fake.resetCounts();
      const { prepared, result } = await run(h.ctx, { entries: [acmeEntry, quietEntry()], sectors: ['healthcare'] });
      assert.equal(result.state, 'published');
      assert.deepEqual(
        fake.log.map((r) => r.path),
        ['/orgs/quiet-co/repos?type=public&sort=pushed&direction=desc&per_page=1'],
      );
      const counts = await statusCounts(h.store.db, prepared.run.id);
      assert.equal(counts.carried, 1);
      assert.equal(counts.unchanged, 1);
      assert.equal((await periodStartups(h.store.db, '2026-w10')).length, 2);
    } finally {
      await h.close();
    }
  });

  test('--sector refuses to publish when other sectors have no stored activity for the week', async () => {
    const h = await harness(fake);
    try {
      await assert.rejects(
        prepareRun(h.ctx, {
          period: PERIOD,
          entries: [acmeEntry, quietEntry()],
          sectors: ['healthcare'],
          dryRun: false,
          fullRefresh: false,
        }),
        (err: unknown) =>
          err instanceof PipelineError &&
          /^cannot publish 2026-w10 from sectors healthcare alone: 1 organisation\(s\) of other sectors have no stored activity covering the week \(acme-labs\)/.test(
            err.message,
          ),
      );
    } finally {
      await h.close();
    }
  });
});
