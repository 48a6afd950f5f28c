import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/** One cruise of src/ against the layering rules in .dependency-cruiser.cjs. */
async function cruiseSource(): Promise<ICruiseResult> {
  const config = require(path.join(root, '.dependency-cruiser.cjs'));
  const previous = process.cwd();
  process.chdir(root); // paths in rules and results are relative to the project root
  try {
    const reporting = await cruise(['src'], {
      ...config.options,
      ruleSet: { forbidden: config.forbidden },
      validate: true,
    });
    return reporting.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}

const describeViolation = (v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('layering of src/ (docs/architecture.md)', () => {
  test('no import breaks a layering rule: arrows point down, surfaces never query the store, no cycles', async () => {
    const { summary } = await cruiseSource();
    assert.deepEqual(summary.violations.map(describeViolation), []);
    assert.ok(summary.totalCruised > 200, 'the cruise saw the source tree');
  });
});
