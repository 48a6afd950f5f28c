import { generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { lastCompletePeriod } from '../src/core/periods.js';
const t = performance.now();
const d = generateDemoDataset({ seed: 'signal-service-demo', startups: 315, periods: 30, endPeriod: lastCompletePeriod(new Date()) });
console.log('generate', (performance.now() - t).toFixed(0), 'ms', d.periods.length);
