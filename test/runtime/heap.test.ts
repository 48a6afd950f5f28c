import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writePlainModule } from '../helpers/plain-module.js';

let dir: string;

/** Six million small objects from one allocation site (a function's object literal), all kept: what V8 pretenures. */
const ALLOCATE = `
  function make(i) { return { id: i, pair: [i, i + 1] }; }
  const kept = [];
  for (let i = 0; i < 6e6; i++) kept.push(make(i));
  process.stdout.write('kept ' + kept.length + '\\n');
`;

/**
 * Runs `file` in a plain node child (no loader hooks: they change when V8 collects, and so whether it decides at all)
 * with V8's pretenuring trace on, and returns how many allocation sites V8 decided to pretenure.
 *
 * V8 decides to pretenure a site only at a young-generation collection made while the young generation is at its
 * maximum size, and how soon it grows there depends on timing: on a loaded machine the control once finished with no
 * decision at all. So both children run with the young generation capped at 1 MB (`--max-semi-space-size=1`), at its
 * maximum from the start.
 */
function pretenuredSites(file: string): number {
  const run = spawnSync(
    process.execPath,
    ['--trace-pretenuring-statistics', '--max-semi-space-size=1', path.join(dir, file)],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /kept 6000000/);
  return run.stdout.split('\n').filter((line) => /=> tenure$/.test(line.trim())).length;
}

/** Objects that survive a young-generation collection or two, then die: work a scavenge can share out. */
const CHURN = `
  let kept = [];
  for (let i = 0; i < 3e6; i++) {
    kept.push({ id: i, name: 'x' + i });
    if (kept.length > 2e5) kept = [];
  }
  process.stdout.write('churned\\n');
`;

/**
 * Runs `file` in a plain node child with V8's per-collection trace, and returns how many young-generation collections
 * it made and in how many of them V8's helper threads did part of the work.
 */
function scavenges(file: string): { all: number; helped: number } {
  const run = spawnSync(process.execPath, ['--trace-gc-nvp', '--max-semi-space-size=8', path.join(dir, file)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /churned/);
  const lines = run.stdout.split('\n').filter((line) => line.includes(' gc=s '));
  const helped = lines.filter((line) => Number(/background\.scavenge\.parallel=([\d.]+)/.exec(line)?.[1] ?? 0) > 0);
  return { all: lines.length, helped: helped.length };
}

/**
 * One property read (`readX`) made on objects of ten different shapes, as node's stream and event functions see
 * sockets, requests, streams and client objects of many classes in one process.
 */
const SHAPES = `
  function readX(o) { return o.x; }
  const objects = [];
  for (let i = 0; i < 10; i++) objects.push(JSON.parse('{"x": ' + i + ', "only' + i + '": true}'));
  let sum = 0;
  for (let round = 0; round < 3; round++) for (const o of objects) sum += readX(o);
  process.stdout.write('sum ' + sum + '\\n');
`;

/**
 * Runs `file` in a plain node child with V8's inline-cache log, and returns the states `readX`'s property read went
 * through (V8's letters: 1 monomorphic, P polymorphic, N megamorphic, the generic look-up on every access).
 */
function readStates(file: string): string[] {
  const log = path.join(dir, `${file}.log`);
  const run = spawnSync(
    process.execPath,
    ['--log-ic', `--logfile=${log}`, '--no-logfile-per-isolate', path.join(dir, file)],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /sum 135/);
  // LoadIC,pc,time,line,column,old state,new state,map,key,…: the reads of `x` on readX's line of the script.
  const line =
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('function readX')) + 1;
  return readFileSync(log, 'utf8')
    .split('\n')
    .map((entry) => entry.split(','))
    .filter((f) => f[0] === 'LoadIC' && f[3] === String(line) && f[8] === 'x')
    .map((f) => f[6]!);
}

describe('tuneV8ForServing', () => {
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'heap-test-'));
    await writePlainModule('src/runtime/heap.ts', path.join(dir, 'heap.mjs'));
    await fs.writeFile(path.join(dir, 'control.mjs'), ALLOCATE);
    await fs.writeFile(
      path.join(dir, 'tuned.mjs'),
      `import { tuneV8ForServing } from './heap.mjs';\ntuneV8ForServing();\n${ALLOCATE}`,
    );
    await fs.writeFile(path.join(dir, 'churn-control.mjs'), CHURN);
    await fs.writeFile(path.join(dir, 'shapes-control.mjs'), SHAPES);
    await fs.writeFile(
      path.join(dir, 'shapes-tuned.mjs'),
      `import { tuneV8ForServing } from './heap.mjs';\ntuneV8ForServing();\n${SHAPES}`,
    );
    await fs.writeFile(
      path.join(dir, 'churn-tuned.mjs'),
      `import { tuneV8ForServing } from './heap.mjs';\ntuneV8ForServing();\n${CHURN}`,
    );
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  test('without it, V8 pretenures an allocation site whose objects survive (the control)', () => {
    assert.ok(pretenuredSites('control.mjs') > 0);
  });

  test('a serving process never moves an allocation site to the old generation', () => {
    assert.equal(pretenuredSites('tuned.mjs'), 0);
  });

  test("without it, V8's helper threads take part in young-generation collections (the control)", () => {
    const { all, helped } = scavenges('churn-control.mjs');
    assert.ok(all > 0 && helped > 0, `${helped} of ${all} collections helped`);
  });

  test('a serving process collects its young generation on the main thread alone', () => {
    const { all, helped } = scavenges('churn-tuned.mjs');
    assert.ok(all > 0);
    assert.equal(helped, 0);
  });

  test('without it, a property read that has seen more than four shapes takes the generic look-up (the control)', () => {
    assert.ok(readStates('shapes-control.mjs').includes('N'));
  });

  test('a serving process keeps a property read that has seen ten shapes polymorphic', () => {
    const states = readStates('shapes-tuned.mjs');
    assert.ok(states.length >= 10, `${states.length} transitions logged`);
    assert.ok(!states.includes('N'), states.join(' '));
  });
});

describe('compactHeap', () => {
  let compactDir: string;
  before(async () => {
    compactDir = await fs.mkdtemp(path.join(os.tmpdir(), 'heap-compact-test-'));
    await writePlainModule('src/runtime/heap.ts', path.join(compactDir, 'heap.mjs'));
    // About 100 MB of objects that live long enough to reach the old generation, then are dropped: what a period's
    // build leaves behind.
    await fs.writeFile(
      path.join(compactDir, 'compact.mjs'),
      `import { compactHeap } from './heap.mjs';
       let kept = [];
       for (let i = 0; i < 2e6; i++) kept.push({ id: i, name: 'startup-' + i });
       await new Promise((resolve) => setTimeout(resolve, 50));
       kept = undefined;
       const limit = Number(process.argv[2] ?? 768);
       const result = compactHeap(limit);
       process.stdout.write(JSON.stringify({ ...result, globalGc: typeof globalThis.gc }));`,
    );
  });
  after(() => fs.rm(compactDir, { recursive: true, force: true }));

  // The child starts with room for its garbage (--initial-heap-size, in MB), so V8 does not collect it on its own
  // before compactHeap does: on a loaded machine it sometimes had, and the figures then showed no change.
  const run = (limitMb = 768) => {
    const child = spawnSync(
      process.execPath,
      ['--initial-heap-size=1024', path.join(compactDir, 'compact.mjs'), String(limitMb)],
      { encoding: 'utf8' },
    );
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout) as Record<string, number | string>;
  };

  test('returns the memory garbage held: the heap is smaller after it than before', () => {
    const result = run();
    assert.ok(
      Number(result.heapAfterMb) < Number(result.heapBeforeMb) / 2,
      `heap ${result.heapBeforeMb} → ${result.heapAfterMb} MB`,
    );
    assert.equal(typeof result.pauseMs, 'number');
  });

  test('skips a heap in use above the limit, whose pause would be too long, and says so', () => {
    const result = run(10);
    assert.equal(result.skipped, true);
    assert.equal(result.limitMb, 10);
    assert.ok(Number(result.heapUsedMb) > 10);
    assert.equal(result.pauseMs, undefined);
  });

  test("leaves the process's global as it was (no gc function appears)", () => {
    assert.equal(run().globalGc, 'undefined');
  });
});
