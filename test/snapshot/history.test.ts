import { evidenceDetails } from '../../src/domain/evidence-links.js';
import { stageSourceOf } from '../../src/domain/stage-source.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { datasetLines, startupHistory, startupSeries, trendingHistory } from '../../src/snapshot/history.js';
import { TRENDING_SIZE } from '../../src/domain/rules.js';
import { signalLabel } from '../../src/domain/signal-label.js';
import { DatasetRecord } from '../../src/schemas/signals.js';
import { demoSnapshot } from '../core/fixtures.js';

/** A snapshot built in memory has no store behind it: its history is its own period. */
describe('the history of a period built in memory', () => {
  const snapshot = demoSnapshot({ startups: 40, periods: 1 });

  test('its trending history is its own trending list, in rank order', async () => {
    const rows = await trendingHistory(snapshot);
    assert.equal(rows.length, Math.min(TRENDING_SIZE, snapshot.trending.length));
    assert.deepEqual(
      rows.map((r) => r.login),
      snapshot.trending.map((s) => s.login),
    );
    assert.ok(rows.every((r) => r.period === snapshot.period.slug));
  });

  test("a startup's history is its one row of this period", async () => {
    const startup = snapshot.startups[3]!;
    const rows = await startupHistory(snapshot, startup.login);
    assert.deepEqual(
      rows.map((r) => [r.period, r.rankInSector, r.compositeScore]),
      [[snapshot.period.slug, startup.rankInSector, startup.scores.composite]],
    );
    assert.deepEqual(await startupHistory(snapshot, 'no-such-org'), []);
  });

  test('every startup has a one-point series', async () => {
    const series = await startupSeries(snapshot);
    assert.equal(series.size, snapshot.startups.length);
    const first = snapshot.startups[0]!;
    assert.deepEqual(series.get(first.login.toLowerCase())?.commits, [first.startup.commitVelocity14d]);
  });

  test('the dataset export is one JSON line per startup of the period', async () => {
    let text = '';
    for await (const chunk of datasetLines(snapshot)) text += chunk;
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, snapshot.startups.length);
    const record = JSON.parse(lines[0]!);
    assert.equal(record.period, snapshot.period.slug);
    assert.equal(record.synthetic, true);
  });

  test('every dataset record carries its signal strength and evidence', async () => {
    let text = '';
    for await (const chunk of datasetLines(snapshot)) text += chunk;
    const records = text
      .trimEnd()
      .split('\n')
      .map((l) => DatasetRecord.parse(JSON.parse(l)));
    for (const record of records) {
      const s = snapshot.byLogin.get(record.org.toLowerCase())!;
      assert.deepEqual(
        {
          signalStrength: record.signalStrength,
          signalEvidence: record.signalEvidence,
          signalFinding: record.signalFinding,
        },
        signalLabel(s.startup.signalType, s.metrics),
      );
      assert.ok(
        record.signalEvidence.startsWith(record.signalStrength === 'none' ? 'No clear signal' : record.signalType),
        record.signalEvidence,
      );
    }
  });

  test('every dataset record says how its stage is known, as the metrics stored with it say', async () => {
    let text = '';
    for await (const chunk of datasetLines(snapshot)) text += chunk;
    const records = text
      .trimEnd()
      .split('\n')
      .map((l) => DatasetRecord.parse(JSON.parse(l)));
    const sources = new Set<string>();
    for (const record of records) {
      const s = snapshot.byLogin.get(record.org.toLowerCase())!;
      assert.equal(record.stageSource, stageSourceOf(s.metrics));
      sources.add(record.stageSource);
    }
    // The demo's fictional watchlist states about half the stages (with no source); the rest are estimated.
    assert.deepEqual([...sources].sort(), ['estimated', 'watchlist']);
  });

  test('every dataset record carries the details its label rests on, as the metrics stored with it hold them', async () => {
    let text = '';
    for await (const chunk of datasetLines(snapshot)) text += chunk;
    for (const line of text.trimEnd().split('\n')) {
      const record = DatasetRecord.parse(JSON.parse(line));
      const s = snapshot.byLogin.get(record.org.toLowerCase())!;
      assert.deepEqual(record.evidenceDetails, evidenceDetails(s.startup.githubUrl, s.metrics));
    }
  });

  test('a dataset record without evidence says so', async () => {
    let text = '';
    for await (const chunk of datasetLines(snapshot)) text += chunk;
    const none = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as DatasetRecord)
      .filter((r) => r.signalStrength === 'none');
    assert.ok(none.length > 0, 'the demo week has startups without evidence');
    for (const r of none) {
      assert.match(r.signalEvidence, /^No clear signal this week/);
      assert.equal(r.signalFinding, 'No clear signal this week');
      assert.equal(r.rank, null, 'not ranked across sectors');
    }
  });

  test('trending history rows carry the label of their type', async () => {
    for (const row of await trendingHistory(snapshot)) {
      assert.notEqual(row.label.signalStrength, 'none');
      assert.ok(row.label.signalEvidence.startsWith(row.startup.signalType));
    }
  });

  test('each read is made once per snapshot', async () => {
    assert.equal(trendingHistory(snapshot), trendingHistory(snapshot));
    assert.equal(startupSeries(snapshot), startupSeries(snapshot));
    const login = snapshot.startups[0]!.login;
    assert.equal(startupHistory(snapshot, login), startupHistory(snapshot, login));
  });
});
