import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveStartup } from '../../src/core/signals/resolve.js';
import { deriveAsync } from '../../src/snapshot/derive-async.js';
import { derive, signalsCsv, snapshotSteps, startupJson, strongEtag } from '../../src/snapshot/snapshot.js';
import { demoSnapshot } from '../core/fixtures.js';

const snapshot = demoSnapshot({ startups: 40, periods: 1 });

describe('snapshot bodies rendered on first use', () => {
  test("a startup's record is rendered at its first lookup, then kept", () => {
    const item = snapshot.startups[7]!;
    assert.equal(item.json, undefined, 'nothing is rendered when the snapshot is built');
    const body = startupJson(item);
    assert.deepEqual(JSON.parse(body.body.toString()), item.startup);
    assert.equal(body.contentType, 'application/json; charset=utf-8');
    assert.match(body.etag, /^"[A-Za-z0-9_-]{32}"$/);
    assert.equal(startupJson(item), body, 'the second lookup reuses the first rendering');
    const lookup = resolveStartup(snapshot, item.startup.name);
    assert.equal(lookup.rendered, body);
    assert.equal(snapshot.startups[8]!.json, undefined, 'other startups stay unrendered');
  });

  test('the CSV export is rendered once per snapshot, one row per startup', () => {
    const csv = signalsCsv(snapshot);
    assert.equal(signalsCsv(snapshot), csv);
    assert.equal(csv.contentType, 'text/csv; charset=utf-8; header=present');
    const lines = csv.body.toString().split('\r\n').slice(1, -1);
    assert.equal(lines.length, snapshot.startups.length);
    const first = snapshot.trending[0]!;
    assert.ok(
      lines.some(
        (l) => l.startsWith(`${snapshot.period.slug},${first.sector},`) && l.includes(`,1,${first.startup.name},`),
      ),
    );
    const other = demoSnapshot({ startups: 40, periods: 1 });
    assert.notEqual(signalsCsv(other), csv, 'another snapshot gets its own rendering');
    assert.equal(signalsCsv(other).etag, csv.etag, 'of the same bytes when the data is the same');
  });
});

describe('per-period state lives in the snapshot', () => {
  test('a derived value is kept in the snapshot it was built from, and built once', () => {
    let builds = 0;
    const count = derive((s) => ({ startups: s.startups.length, build: ++builds }));
    const own = demoSnapshot({ startups: 10, periods: 1 });
    assert.equal(own.derived.size, 0, 'nothing is derived when the snapshot is built');
    const value = count(own);
    assert.equal(count(own), value);
    assert.equal(builds, 1);
    assert.equal(own.derived.get(count), value, 'the snapshot holds the value');
  });

  test('a newer snapshot starts with none of the older one’s derived values', () => {
    const count = derive((s) => ({ startups: s.startups.length }));
    const older = demoSnapshot({ startups: 10, periods: 1 });
    const newer = demoSnapshot({ startups: 10, periods: 1 });
    const first = count(older);
    assert.notEqual(count(newer), first);
    assert.equal(newer.derived.size, 1);
  });

  test('a failed asynchronous derivation is forgotten, so the next read tries again', async () => {
    let calls = 0;
    const flaky = deriveAsync(async () => {
      calls++;
      if (calls === 1) throw new Error('store did not answer');
      return 'ok';
    });
    const own = demoSnapshot({ startups: 10, periods: 1 });
    await assert.rejects(flaky(own), /store did not answer/);
    assert.equal(own.derived.has(flaky), false);
    assert.equal(await flaky(own), 'ok');
    assert.equal(calls, 2);
  });

  test('the CSV warm-up and a read share one rendering, kept under signalsCsv', () => {
    const fresh = demoSnapshot({ startups: 40, periods: 1 });
    const warm = signalsCsv.warm(fresh);
    warm.next();
    const read = signalsCsv(fresh);
    assert.equal(fresh.derived.get(signalsCsv), fresh.derived.get(signalsCsv));
    assert.ok(fresh.derived.has(signalsCsv));
    let last = warm.next();
    while (!last.done) last = warm.next();
    assert.equal(last.value, read, 'the warm-up ends with the rendering the read finished');
    assert.equal(read.etag, signalsCsv(snapshot).etag);
  });
});

describe('snapshot built in steps', () => {
  const input = {
    baseUrl: 'https://signals.example',
    period: snapshot.period,
    periods: snapshot.periods,
    startups: snapshot.startups.map(({ json: _json, ...s }) => s),
  };

  test('the rankings body is the JSON of the rankings response, byte for byte, with its strong validator', () => {
    const steps = snapshotSteps(input);
    let next = steps.next();
    while (!next.done) next = steps.next();
    const built = next.value;
    const whole = JSON.stringify({
      meta: built.meta,
      trending: built.trending.map((s) => s.startup),
      sectors: built.sectors,
    });
    assert.equal(built.signalsJson.body.toString(), whole);
    assert.equal(built.signalsJson.etag, strongEtag(whole));
  });

  test('it yields between steps, at least once per sector of the rankings', () => {
    const steps = snapshotSteps(input);
    let yields = 0;
    while (!steps.next().done) yields++;
    assert.ok(yields >= snapshot.sectors.length, `${yields} yields`);
  });
});
