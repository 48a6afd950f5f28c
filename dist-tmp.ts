import { parsePeriodSlug } from './src/core/periods.js';
import { generateDemoDataset } from './src/pipeline/demo/generate.js';
const ds = generateDemoDataset({ seed: 'demo', startups: 315, periods: 6, endPeriod: parsePeriodSlug('2026-w47') });
const all = ds.periods.flatMap(p => p.ranked.startups);
for (const t of ['Framework migration','Infrastructure buildout','Engineering hiring burst','Deploy frequency spike'] as const) {
  const v = all.map(s => s.signalEvidence.scores![t]).sort((a,b)=>a-b);
  const q = (p: number) => v[Math.floor(p*(v.length-1))];
  console.log(t.padEnd(26), 'p25', q(.25), 'p50', q(.5), 'p75', q(.75), 'p90', q(.9), 'p97', q(.97), '>=1', v.filter(x=>x>=1).length/v.length);
}
