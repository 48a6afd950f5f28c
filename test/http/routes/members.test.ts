import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { parsePeriodSlug } from '../../../src/domain/periods.js';
import { DEMO_DATASET_NAME } from '../../../src/pipeline/demo/generate.js';
import { publishPeriod } from '../../../src/store/periods.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { generatedDemo } from '../../helpers/demo.js';

type Json = Record<string, any>;

/**
 * The ledger end to end: members written to a content directory (DOCUMENTS_DIR), six weeks published into the
 * service's own store, and every pick graded through GET /api/v1/members.json.
 */
describe('members ledger over published periods', () => {
  const dataset = generatedDemo({
    seed: 'members-ledger',
    startups: 40,
    periods: 6,
    endPeriod: parsePeriodSlug('2026-w46'),
  });
  const weeks = dataset.periods.map((p) => p.period.slug); // 2026-w41 … 2026-w46
  const trendingIn = (slug: string) =>
    dataset.periods.find((p) => p.period.slug === slug)!.ranked.trending.map((s) => s.login);
  /** Ranked #1 in w43. */
  const winner = trendingIn('2026-w43')[0]!;
  /** In no trending list of any week. */
  const never = dataset.periods[0]!.ranked.startups.find((s) =>
    weeks.every((w) => !trendingIn(w).includes(s.login)),
  )!.login;

  let svc: TestApp;
  let dir: string;
  let ledger: Json;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sigsvc-documents-'));
    cpSync(PACKAGED_CONTENT_DIR, dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'members', 'members.yaml'),
      stringify({
        members: [
          {
            handle: 'zz-late',
            joined: '2026-09-01',
            sample: true,
            // Picked in w42: window w43–w44.
            picks: [{ startup: winner, picked_on: '2026-10-14', window_weeks: 2, thesis: 'Hiring.' }],
          },
          {
            handle: 'aa-early',
            joined: '2026-09-01',
            sample: true,
            picks: [
              // Picked in w41: window w42–w43, closed and never trending.
              { startup: never, picked_on: '2026-10-07', window_weeks: 2 },
              // Picked in w46: window w47–w50, nothing published yet.
              { startup: winner, picked_on: '2026-11-11', window_weeks: 4 },
            ],
          },
        ],
      }),
    );
    svc = await startTestApp({ DOCUMENTS_DIR: dir, DEMO_DATA: 'off' }, { store: true });
    for (const [i, { period, ranked }] of dataset.periods.entries()) {
      await publishPeriod(svc.service.store.db, {
        period,
        ranked,
        dataset: 'synthetic-demo',
        datasetName: DEMO_DATASET_NAME,
        publishedAt: new Date(Date.UTC(2026, 9, 12 + 7 * i, 6)),
      });
    }
    while (svc.service.holder.current?.periods.length !== weeks.length) await new Promise((r) => setTimeout(r, 50));
    ledger = (await (await svc.get('/api/v1/members.json')).json()) as Json;
  });
  after(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const picks = (handle: string) => ledger.members.find((m: Json) => m.handle === handle).picks as Json[];

  test('a startup that trended inside the window is a hit, sourced to the period page', () => {
    const [hit] = picks('zz-late');
    assert.equal(hit!.outcome, 'hit');
    assert.equal(hit!.outcome_period, '2026-w43');
    assert.equal(hit!.outcome_rank, 1);
    assert.equal(hit!.source_url, `${svc.url}/periods/2026-w43`);
  });

  test('a closed window without a trending appearance is a miss', () => {
    assert.equal(picks('aa-early')[0]!.outcome, 'miss');
  });

  test('a window whose weeks are not published yet is pending', () => {
    assert.equal(picks('aa-early')[1]!.outcome, 'pending');
  });

  test('the leaderboard ranks one hit above none', () => {
    assert.deepEqual(
      ledger.leaderboard.map((e: Json) => [e.position, e.handle, e.hits, e.closed_windows, e.picks]),
      [
        [1, 'zz-late', 1, 1, 1],
        [2, 'aa-early', 0, 1, 2],
      ],
    );
  });

  test('the aggregate counts every pick', () => {
    assert.deepEqual(ledger.aggregate, {
      total_picks: 3,
      total_hits: 1,
      total_closed_windows: 2,
      cohort_hit_rate_pct: 50,
    });
  });

  test('sample members claim no seat', () => {
    assert.equal(ledger.cohort.seats_claimed, 0);
  });
});
