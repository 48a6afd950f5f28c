import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signalLabel } from '../../../src/domain/signal-label.js';
import { siteUrls } from '../../../src/domain/urls.js';
import { pageContext } from '../../../src/web/context.js';
import { homePage, periodPage, sectorPage, startupPage } from '../../../src/web/pages/data.js';
import { BASE, demoSnapshot } from '../../core/fixtures.js';

/** Wherever the site shows a signal type, the strength of its evidence goes with it. */
const snapshot = demoSnapshot();
const ctx = pageContext(snapshot, siteUrls(BASE));
const labelOf = (s: (typeof snapshot.startups)[number]) => signalLabel(s.startup.signalType, s.metrics);
const noEvidence = snapshot.startups.find((s) => labelOf(s).signalStrength === 'none' && s.rankInSector <= 10)!;
/** The page's markup with entities undone, as a reader sees the text. */
const text = (body: { value: string }) => body.value.replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"');

describe('signal labels on the site', () => {
  test('a startup without evidence shows no clear signal on its page, not its placeholder type', async () => {
    const page = text((await startupPage(ctx, noEvidence))!.body);
    assert.ok(page.includes('No clear signal this week'), 'the label in place of the type');
    assert.ok(page.includes(labelOf(noEvidence).signalEvidence), 'the evidence line');
    assert.ok(page.includes('unranked (no evidence for its type)'));
  });

  test('a startup page shows the strength and evidence of its type', async () => {
    const s = snapshot.trending[0]!;
    const page = text((await startupPage(ctx, s))!.body);
    assert.ok(page.includes(`${labelOf(s).signalStrength} evidence`));
    assert.ok(page.includes(labelOf(s).signalEvidence));
  });

  test('the trending table shows each signal type with its strength, never without evidence', async () => {
    const page = text((await homePage(ctx)).body);
    for (const s of snapshot.trending) {
      assert.ok(page.includes(`data-strength="${labelOf(s).signalStrength}"`));
    }
    assert.ok(!page.includes('data-strength="none"'));
  });

  test('a sector table shows no clear signal for the startups whose types have no evidence', async () => {
    const page = text((await sectorPage(ctx, noEvidence.sector))!.body);
    const row = page.split('<tr').find((r) => r.includes(`>${noEvidence.startup.name}<`))!;
    assert.match(row, /data-strength="none"/);
    assert.match(row, />No clear signal<\/span/);
    assert.ok(!row.includes(`>${noEvidence.startup.signalType}`), 'the placeholder type is not shown as a finding');
  });

  test('the trending list of a stored week shows each type with its strength', async () => {
    const page = text((await periodPage(ctx, snapshot.period.slug))!.body);
    assert.equal((page.match(/data-strength="(strong|weak)"/g) ?? []).length, snapshot.trending.length);
  });
});
