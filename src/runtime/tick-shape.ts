/**
 * Settles the shape (V8 hidden class) of Node's `process.nextTick` queue entries before the server takes load.
 *
 * Node's HTTP and stream code calls `process.nextTick` several times per request, and each call builds an object
 * literal `{ [async_id_symbol]: asyncId, [trigger_async_id_symbol]: triggerAsyncId, callback, args }`. Because its
 * first keys are computed, V8 adds them through an inline cache keyed on the object's hidden class. Measured here
 * (docs/architecture.md, "Runtime settings of the serving process"): in some processes the optimised `nextTick` instead went through V8's runtime
 * for every entry (`Runtime_DefineKeyedOwnPropertyInLiteral`, with a map transition search and a migration each
 * time), and a cached lookup cost 15–25 % more CPU; which processes did was a matter of chance.
 *
 * This builds two objects of the same shape whose fields hold a string and a fraction, so every field of that
 * hidden-class chain is at its most general representation from the start. Node's own entries then share it (the
 * test checks), and no later value can generalise a field and deprecate the class under the optimised code. The
 * objects are kept for the life of the process so the classes stay alive. Node's internal symbols are read off a
 * queue entry itself, which `executionAsyncResource()` returns inside a `nextTick` callback.
 */
import { executionAsyncResource } from 'node:async_hooks';

let kept: object[] | undefined;

/** Resolves true once settled; false when the queue entry does not have the expected keys (a Node change). */
export function settleTickObjectShape(): Promise<boolean> {
  return new Promise((resolve) => {
    process.nextTick(() => {
      const entry = executionAsyncResource() as Record<string | symbol, unknown>;
      const symbols = Object.getOwnPropertySymbols(entry);
      const plain = Object.keys(entry);
      if (symbols.length !== 2 || plain.length !== 2 || plain[0] !== 'callback' || plain[1] !== 'args') {
        resolve(false);
        return;
      }
      const [asyncId, triggerId] = symbols as [symbol, symbol];
      // Same keys in the same order as Node's literal: a string generalises each field past small integers and
      // object references, a fraction past anything but a tagged value.
      kept = [
        { [asyncId]: 'x', [triggerId]: 'x', callback: 'x', args: 'x' },
        { [asyncId]: 0.5, [triggerId]: 0.5, callback: 0.5, args: 0.5 },
      ];
      resolve(true);
    });
  });
}

/** The objects that hold the settled shape (for the test). */
export function settledTickObjects(): readonly object[] | undefined {
  return kept;
}
