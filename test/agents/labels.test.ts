import { evidenceDetails } from '../../src/domain/evidence-links.js';
import { stageSourceOf } from '../../src/domain/stage-source.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AppContext } from '../../src/app.js';
import { findTool, type ToolEnv } from '../../src/agents/registry.js';
import { signalLabel } from '../../src/domain/signal-label.js';
import { Startup } from '../../src/schemas/signals.js';
import { demoSnapshot } from '../core/fixtures.js';

/**
 * The read tools' results carry each startup's signal strength and evidence beside its Startup object (whose fields
 * stay exactly the interface's), over the demo dataset held in memory.
 */
const snapshot = demoSnapshot();
const env = {
  ctx: { holder: { published: () => snapshot } } as unknown as AppContext,
  authenticate: () => Promise.reject(new Error('no paid tool here')),
} satisfies ToolEnv;

async function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const tool = findTool(name)!;
  const result = await tool.handler(tool.inputSchema.parse(args), env);
  return tool.outputSchema.parse(result) as Record<string, any>;
}

const labelOf = (login: string) => {
  const s = snapshot.byLogin.get(login.toLowerCase())!;
  return { ...signalLabel(s.startup.signalType, s.metrics), stageSource: stageSourceOf(s.metrics) };
};

describe('agent tool results carry signal labels', () => {
  test('get_trending_startups labels each startup beside it, in the same order', async () => {
    const r = await call('get_trending_startups');
    assert.equal(r.labels.length, r.startups.length);
    snapshot.trending.forEach((s, i) => {
      assert.deepEqual(r.labels[i], { name: s.startup.name, signalType: s.startup.signalType, ...labelOf(s.login) });
      assert.deepEqual(Object.keys(r.startups[i]), Object.keys(Startup.shape), 'the Startup keeps its fields');
    });
  });

  test('no trending startup lacks evidence', async () => {
    const r = await call('get_trending_startups');
    assert.equal(r.startups.length, 20);
    for (const label of r.labels) assert.notEqual(label.signalStrength, 'none', label.name);
  });

  test('search_startups_by_sector labels every startup of the sector, one without evidence saying so', async () => {
    const noEvidence = snapshot.startups.find((s) => labelOf(s.login).signalStrength === 'none')!;
    const r = await call('search_startups_by_sector', { sector: noEvidence.sector });
    assert.deepEqual(
      r.labels.map((l: { name: string }) => l.name),
      r.startups.map((s: { name: string }) => s.name),
    );
    const label = r.labels.find((l: { name: string }) => l.name === noEvidence.startup.name)!;
    assert.equal(label.signalStrength, 'none');
    assert.equal(label.signalFinding, 'No clear signal this week');
    assert.match(label.signalEvidence, /^No clear signal this week/);
  });

  test('get_startup_signal carries the strength and evidence beside the Startup', async () => {
    const target = snapshot.trending[0]!;
    const r = await call('get_startup_signal', { name: target.login });
    assert.deepEqual(r, {
      found: true,
      nameMatch: 'exact',
      startup: target.startup,
      ...labelOf(target.login),
      evidenceDetails: evidenceDetails(target.startup.githubUrl, target.metrics),
    });
    assert.deepEqual(Object.keys(r.startup), Object.keys(Startup.shape));
  });

  test('get_startup_signal in a period carries the details its label rests on, with GitHub links', async () => {
    const target = snapshot.trending[0]!;
    const r = await call('get_startup_signal_in_period', { name: target.login, period: snapshot.period.slug });
    assert.deepEqual(r.evidenceDetails, evidenceDetails(target.startup.githubUrl, target.metrics));
  });

  test('a startup without evidence says so in get_startup_signal', async () => {
    const target = snapshot.startups.find((s) => labelOf(s.login).signalStrength === 'none')!;
    const r = await call('get_startup_signal', { name: target.login });
    assert.equal(r.signalStrength, 'none');
    assert.equal(r.signalFinding, 'No clear signal this week');
    assert.match(r.signalEvidence, /^No clear signal this week/);
  });
});
