import { generateDemoDataset, type DemoDataset, type DemoOptions } from '../../src/pipeline/demo/generate.js';
import { cachedValue, sourceHash } from './cache.js';

/** What the generator's output depends on besides its options: the generator and the stages and rules it runs. */
const GENERATOR_SOURCES = ['pipeline', 'domain', 'schemas'];

/**
 * `generateDemoDataset(options)`, generated once for these options and this generator and then read back from the
 * test cache (tens of milliseconds instead of one to two seconds). Tests of the generator itself call it directly.
 */
export function generatedDemo(options: DemoOptions): DemoDataset {
  const key = { ...options, endPeriod: options.endPeriod.slug, source: sourceHash(GENERATOR_SOURCES) };
  return cachedValue('demo', key, () => generateDemoDataset(options));
}
