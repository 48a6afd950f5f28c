import { parsePeriodSlug } from './src/core/periods.js';
import { generateDemoDataset } from './src/pipeline/demo/generate.js';
for (const periods of [1, 30]) {
const t0 = Date.now();
generateDemoDataset({ seed: 'demo', startups: 315, periods, endPeriod: parsePeriodSlug('2026-w47') });
console.log(periods, 'ms', Date.now() - t0);
}
