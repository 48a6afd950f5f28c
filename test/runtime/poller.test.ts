import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startPoller } from '../../src/runtime/poller.js';

const HOUR = 3_600_000;

describe('startPoller', () => {
  test('runs a pass at once when started', async () => {
    let passes = 0;
    const poller = startPoller(
      async () => void passes++,
      HOUR,
      () => {},
    );
    await poller.stop();
    assert.equal(passes, 1);
  });

  test('a kick during a pass runs one more pass after it, never two at a time', async () => {
    let passes = 0;
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const poller = startPoller(
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        passes++;
        if (passes === 1) await gate;
        inFlight--;
      },
      HOUR,
      () => {},
    );
    poller.kick();
    poller.kick();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    await poller.stop();
    assert.equal(passes, 2);
    assert.equal(most, 1);
  });

  test('a pass that says more is due is followed by another at once', async () => {
    let passes = 0;
    const poller = startPoller(
      async () => ++passes < 3,
      HOUR,
      () => {},
    );
    await new Promise((resolve) => setImmediate(resolve));
    await poller.stop();
    assert.equal(passes, 3);
  });

  test('a pass that throws is reported and the poller goes on', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const poller = startPoller(
      async () => {
        passes++;
        if (passes === 1) throw new Error('boom');
      },
      HOUR,
      (err) => errors.push(err),
    );
    await new Promise((resolve) => setImmediate(resolve));
    poller.kick();
    await poller.stop();
    assert.equal(errors.length, 1);
    assert.equal(passes, 2);
  });
});
