import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { settleTickObjectShape, settledTickObjects } from '../../src/runtime/tick-shape.js';
import { writePlainModule } from '../helpers/plain-module.js';

let dir: string;

describe('settleTickObjectShape', () => {
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tick-shape-test-'));
    await writePlainModule('src/runtime/tick-shape.ts', path.join(dir, 'tick-shape.mjs'));
    // A plain node child with V8's natives syntax: does a queue entry made after settling, and after entries holding
    // every kind of value, still have the hidden class of the settled objects?
    await fs.writeFile(
      path.join(dir, 'check.mjs'),
      `import { executionAsyncResource } from 'node:async_hooks';
import { settleTickObjectShape, settledTickObjects } from './tick-shape.mjs';
const entry = (...args) => new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource()), ...args));
const settled = await settleTickObjectShape();
for (let i = 0; i < 50000; i++) process.nextTick(() => {}, ...(i % 3 === 0 ? [] : i % 3 === 1 ? [i] : ['x', 0.5]));
await new Promise((resolve) => setImmediate(resolve));
const later = await entry(1, 2);
process.stdout.write(JSON.stringify({ settled, sameClass: %HaveSameMap(settledTickObjects()[0], later) }));
`,
    );
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  test("reads Node's queue-entry keys and keeps objects with the same keys in the same order", async () => {
    assert.equal(await settleTickObjectShape(), true);
    const objects = settledTickObjects()!;
    assert.equal(objects.length, 2);
    for (const o of objects) {
      const keys = Reflect.ownKeys(o);
      assert.deepEqual(keys.slice(0, 2), ['callback', 'args']);
      assert.deepEqual(
        keys.slice(2).map((k) => String(k)),
        ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'],
      );
    }
  });

  test("Node's queue entries made afterwards share the settled hidden class, whatever values they hold", () => {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', path.join(dir, 'check.mjs')], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { settled: true, sameClass: true });
  });
});
