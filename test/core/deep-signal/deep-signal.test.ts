import { stageSourceOf } from '../../../src/domain/stage-source.js';
import { evidenceDetails } from '../../../src/domain/evidence-links.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deepSignal } from '../../../src/core/deep-signal/index.js';
import { sectorInfo } from '../../../src/domain/sectors.js';
import { signalLabel } from '../../../src/domain/signal-label.js';
import { DeepSignal } from '../../../src/schemas/deep-signal.js';
import type { Snapshot, SnapshotStartup } from '../../../src/snapshot/snapshot.js';
import { demoWeeks } from './fixtures.js';

const { snapshot, periods } = demoWeeks();
const sectorList = (s: SnapshotStartup) => snapshot.bySector.get(s.sector)!;
const middle = (list: SnapshotStartup[]) => list[Math.floor(list.length / 2)]!;

/** Percentile with the documented rule, counted directly: 100 × (below + equal / 2) / count. */
function pct(values: number[], v: number): number {
  const below = values.filter((x) => x < v).length;
  const equal = values.filter((x) => x === v).length;
  return Math.round((100 * (below + equal / 2)) / values.length);
}

async function hit(name: string) {
  const result = await deepSignal(snapshot, name);
  assert.equal(result.found, true, `expected ${name} to be found`);
  return result as Extract<typeof result, { found: true }>;
}

describe('deepSignal', () => {
  test('a tracked startup answers every DeepSignal field, and charges 1', async () => {
    const target = middle(snapshot.bySector.get('robotics')!);
    const { body } = await hit(target.startup.name);
    assert.deepEqual(Object.keys(body), [
      'found',
      'name',
      'sector',
      'stage',
      'stageSource',
      'geography',
      'signalType',
      'signalStrength',
      'signalEvidence',
      'signalFinding',
      'collection',
      'collectionNote',
      'scores',
      'rank',
      'thesis',
      'evidence',
      'comparables',
      'history',
      'charged',
    ]);
    DeepSignal.parse(body);
    assert.equal(body.name, target.startup.name);
    assert.equal(body.sector, 'robotics');
    assert.equal(body.stage, target.startup.stage);
    assert.equal(body.stageSource, stageSourceOf(target.metrics));
    assert.equal(body.geography, target.startup.geography);
    assert.equal(body.signalType, target.startup.signalType);
    assert.equal(body.charged, 1);
  });

  test('evidence is what the classify stage stored with the record: its rule, strength and summary', async () => {
    // A startup whose type has evidence, so its summary names the type.
    const target = snapshot.bySector
      .get('healthcare')!
      .find((s) => (s.metrics['signalEvidence'] as { strength?: string }).strength !== 'none')!;
    const stored = target.metrics['signalEvidence'] as { rule: string; strength?: string; summary?: string };
    const { body } = await hit(target.startup.name);
    const { details, ...evidence } = body.evidence;
    assert.deepEqual(evidence, { rule: stored.rule, strength: stored.strength, summary: stored.summary });
    assert.deepEqual(details, evidenceDetails(target.startup.githubUrl, target.metrics));
    assert.ok(body.evidence.summary.includes(target.startup.signalType), body.evidence.summary);
  });

  test('the payload, each comparable and each history entry carry their signal strength and evidence', async () => {
    const target = middle(snapshot.bySector.get('healthcare')!);
    const { body } = await hit(target.login);
    assert.deepEqual(
      { signalStrength: body.signalStrength, signalEvidence: body.signalEvidence, signalFinding: body.signalFinding },
      signalLabel(target.startup.signalType, target.metrics),
    );
    assert.deepEqual([body.evidence.strength, body.evidence.summary], [body.signalStrength, body.signalEvidence]);
    assert.ok(body.comparables.length > 0 && body.history.length > 1);
    for (const c of body.comparables) {
      const peer = snapshot.startups.find((s) => s.startup.githubUrl === c.githubUrl)!;
      assert.deepEqual(
        { signalStrength: c.signalStrength, signalEvidence: c.signalEvidence, signalFinding: c.signalFinding },
        signalLabel(peer.startup.signalType, peer.metrics),
      );
    }
    for (const h of body.history) {
      assert.ok(
        h.signalEvidence.startsWith(h.signalStrength === 'none' ? 'No clear signal' : h.signalType),
        h.signalEvidence,
      );
    }
    assert.deepEqual(
      [body.history.at(-1)!.signalStrength, body.history.at(-1)!.signalEvidence],
      [body.signalStrength, body.signalEvidence],
    );
  });

  test('a startup without evidence says so in its Deep Signal, thesis included', async () => {
    const target = snapshot.startups.find(
      (s) => signalLabel(s.startup.signalType, s.metrics).signalStrength === 'none' && s.startup.contributors >= 2,
    )!;
    const { body } = await hit(target.login);
    assert.equal(body.signalStrength, 'none');
    assert.equal(body.signalFinding, 'No clear signal this week');
    assert.match(body.signalEvidence, /^No clear signal this week/);
    assert.match(body.thesis, /no clear signal this week/);
    assert.equal(body.rank.inSector, target.rankInSector);
  });

  test('scores follow the documented formulas against the sector', async () => {
    const target = middle(snapshot.bySector.get('edtech')!);
    const list = sectorList(target);
    const { body } = await hit(target.login);
    const num = (t: string) => Number.parseInt(t, 10);
    const m = (s: SnapshotStartup, k: string) => s.metrics[k] as number;
    assert.equal(
      body.scores.velocity,
      pct(
        list.map((s) => s.startup.commitVelocity14d),
        target.startup.commitVelocity14d,
      ),
    );
    assert.equal(
      body.scores.novelty,
      pct(
        list.map((s) => s.startup.newRepos),
        target.startup.newRepos,
      ),
    );
    const commits = pct(
      list.map((s) => m(s, 'commitChangePct')),
      m(target, 'commitChangePct'),
    );
    const people = pct(
      list.map((s) => m(s, 'contributorChangePct')),
      m(target, 'contributorChangePct'),
    );
    assert.equal(body.scores.growth, Math.round((commits + people) / 2));
    assert.equal(m(target, 'commitChangePct'), num(target.startup.commitVelocityChange));
    assert.equal(
      body.scores.composite,
      Math.round(0.5 * body.scores.growth + 0.3 * body.scores.velocity + 0.2 * body.scores.novelty),
    );
  });

  test('rank is the published sector position with its percentile: 100 for the leader, 0 for the last', async () => {
    const list = snapshot.bySector.get('gaming')!;
    const first = await hit(list[0]!.login);
    const last = await hit(list.at(-1)!.login);
    assert.deepEqual(first.body.rank, { inSector: 1, sectorTotal: list.length, sectorPercentile: 100 });
    assert.deepEqual(last.body.rank, { inSector: list.length, sectorTotal: list.length, sectorPercentile: 0 });
  });

  test('history lists every stored period the startup appears in, oldest first, ending with the current one', async () => {
    const target = middle(snapshot.bySector.get('proptech')!);
    const { body } = await hit(target.login);
    assert.deepEqual(
      body.history.map((h) => h.period),
      periods.map((p) => p.slug),
    );
    const now = body.history.at(-1)!;
    assert.equal(now.rankInSector, target.rankInSector);
    assert.equal(now.commitVelocity14d, target.startup.commitVelocity14d);
    assert.equal(now.compositeScore, target.scores.composite);
  });

  test('comparables are three other startups of the sector, nearest signal profile first, each with a reason', async () => {
    const target = middle(snapshot.bySector.get('healthcare')!);
    const { body } = await hit(target.login);
    assert.equal(body.comparables.length, 3);
    const names = new Set(sectorList(target).map((s) => s.startup.name));
    for (const c of body.comparables) {
      assert.ok(names.has(c.name), `${c.name} is in the sector`);
      assert.notEqual(c.name, target.startup.name);
      assert.match(c.reason, /velocity \d+ vs \d+, growth \d+ vs \d+, novelty \d+ vs \d+/);
    }
    const distance = (c: (typeof body.comparables)[number]) =>
      Math.hypot(
        c.scores.velocity - body.scores.velocity,
        c.scores.growth - body.scores.growth,
        c.scores.novelty - body.scores.novelty,
      ) + (c.signalType === body.signalType ? 0 : 15);
    const d = body.comparables.map(distance);
    assert.deepEqual(
      d,
      [...d].sort((a, b) => a - b),
    );
  });

  test('comparables are the most similar, not the top of the sector', async () => {
    const list = snapshot.bySector.get('agtech')!;
    const target = list.at(-1)!;
    const { body } = await hit(target.login);
    const topThree = list.slice(0, 3).map((s) => s.startup.name);
    assert.notDeepEqual(
      body.comparables.map((c) => c.name),
      topThree,
    );
    const chosen = Math.max(
      ...body.comparables.map(
        (c) =>
          Math.hypot(
            c.scores.velocity - body.scores.velocity,
            c.scores.growth - body.scores.growth,
            c.scores.novelty - body.scores.novelty,
          ) + (c.signalType === body.signalType ? 0 : 15),
      ),
    );
    const leader = (await hit(list[0]!.login)).body.scores;
    const leaderDistance =
      Math.hypot(
        leader.velocity - body.scores.velocity,
        leader.growth - body.scores.growth,
        leader.novelty - body.scores.novelty,
      ) + (list[0]!.startup.signalType === body.signalType ? 0 : 15);
    assert.ok(chosen <= leaderDistance, 'no chosen comparable is farther than the sector leader');
  });

  test('the thesis quotes the payload numbers and says what the data is not', async () => {
    const target = middle(snapshot.bySector.get('web3')!);
    const { body } = await hit(target.login);
    assert.match(body.thesis, /^Synthetic demo data/);
    assert.ok(body.thesis.includes(`#${body.rank.inSector} of ${body.rank.sectorTotal}`));
    assert.ok(body.thesis.includes(sectorInfo('web3').name));
    assert.ok(body.thesis.includes(snapshot.period.name));
    assert.match(body.thesis, /revenue/);
  });

  test('the thesis varies between startups', async () => {
    const shapes = new Set<string>();
    for (const s of snapshot.startups.slice(0, 60)) {
      const { body } = await hit(s.login);
      // Templates only: names, sector names and numbers taken out.
      const shape = body.thesis
        .split(s.startup.name)
        .join('X')
        .replace(/[-+\d#%,]+/g, 'N')
        .replace(/of [A-Z][\w &-]+? (in|this|,)/g, 'of S $1');
      shapes.add(shape);
    }
    assert.ok(shapes.size >= 10, `only ${shapes.size} distinct thesis shapes out of 60`);
  });

  test('an exact name in any case, or the organisation slug, is a hit', async () => {
    const target = middle(snapshot.bySector.get('hr-tech')!);
    assert.equal((await hit(target.startup.name.toUpperCase())).startup, target);
    assert.equal((await hit(target.login)).startup, target);
  });

  test('a typo of a tracked startup is a miss that charges nothing, offering the startup as a candidate', async () => {
    const target = middle(snapshot.bySector.get('hr-tech')!);
    const typo = `${target.startup.name}x`;
    assert.equal(snapshot.matcher.best(typo)?.item, target, 'the free lookup reads it as a typo');
    const result = await deepSignal(snapshot, typo);
    assert.equal(result.found, false);
    assert.equal(result.body.charged, 0);
    assert.ok(!result.found && result.body.candidates?.some((c) => c.org === target.login));
  });

  test('an untracked name is a miss that charges nothing', async () => {
    for (const name of ['Zzqx Vvwk Nonexistent', '!!!', '   ']) {
      const result = await deepSignal(snapshot, name);
      assert.deepEqual(result.body, { found: false, charged: 0 });
    }
  });
});

describe('deepSignal payload cache', () => {
  /** A demo snapshot whose source counts the history reads it answers. */
  function counted(counter: { reads: number }): Snapshot {
    const { snapshot } = demoWeeks({ startups: 45, periods: 3 });
    const source = snapshot.source;
    return {
      ...snapshot,
      derived: new Map(),
      source: {
        ...source,
        startupHistory: (login) => {
          counter.reads++;
          return source.startupHistory(login);
        },
      },
    };
  }

  test('a payload is built once per snapshot, and shared frozen', async () => {
    const counter = { reads: 0 };
    const own = counted(counter);
    const name = own.startups[4]!.startup.name;
    const first = await deepSignal(own, name);
    const second = await deepSignal(own, name);
    assert.ok(first.found && second.found && first.startup === second.startup);
    assert.equal(counter.reads, 1);
    assert.equal(first.body, second.body);
    assert.ok(Object.isFrozen(first.body) && Object.isFrozen((first.body as { history: object }).history));
    await deepSignal(counted(counter), name);
    assert.equal(counter.reads, 2, 'a new snapshot reads again');
  });
});
