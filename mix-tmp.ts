import { parsePeriodSlug } from './src/core/periods.js';
import { generateDemoDataset } from './src/pipeline/demo/generate.js';
const seed = process.argv[2] ?? 'demo';
const t0 = Date.now();
const ds = generateDemoDataset({ seed, startups: 315, periods: 30, endPeriod: parsePeriodSlug('2026-w47') });
console.log('ms', Date.now() - t0);
const rows: string[] = [];
let zeroGrowth = 0, total = 0; const cpc: number[] = [];
let maxShare = 0;
for (const { period, ranked } of ds.periods) {
  const mix = new Map<string, number>(); const str = new Map<string, number>();
  for (const s of ranked.startups) {
    mix.set(s.startup.signalType, (mix.get(s.startup.signalType) ?? 0) + 1);
    str.set(s.signalEvidence.strength!, (str.get(s.signalEvidence.strength!) ?? 0) + 1);
  }
  maxShare = Math.max(maxShare, ...[...mix.values()].map(v => v / ranked.startups.length));
  rows.push(`${period.slug} ${[...mix].map(([k, v]) => `${k.split(' ')[0]}:${v}`).join(' ')} | ${[...str].map(([k, v]) => `${k}:${v}`).join(' ')}`);
}
const last13 = ds.periods.slice(-13);
const nonZeroOrgs = new Set<string>();
for (const { ranked } of last13) for (const s of ranked.startups) {
  total++; if (s.startup.contributorGrowth === '+0%') zeroGrowth++; else nonZeroOrgs.add(s.login);
  if (s.startup.contributors > 0) cpc.push(s.startup.commitVelocity14d / s.startup.contributors);
}
cpc.sort((a, b) => a - b);
const q = (p: number) => cpc[Math.floor(p * (cpc.length - 1))]!.toFixed(1);
console.log(rows.slice(-8).join('\n'));
console.log('maxShare', maxShare.toFixed(2), '+0% share last13', (zeroGrowth / total).toFixed(2), 'orgs with nonzero growth in quarter', nonZeroOrgs.size);
console.log('commits/contrib/14d p5', q(0.05), 'p50', q(0.5), 'p95', q(0.95), 'max', q(1));
const w = ds.periods.at(-1)!.ranked.startups;
for (const s of w.slice(0, 6)) console.log(s.startup.name, s.startup.commitVelocity14d, s.startup.commitVelocityChange, s.startup.contributors, s.startup.contributorGrowth, s.signalEvidence.summary);
