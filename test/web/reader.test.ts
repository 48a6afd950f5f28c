import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The pages as an investor reads them on a Monday, in Debian's Chromium through playwright-core: each test names what
 * a person sees. Skipped, with the reason, where no Chromium is installed (CI requires it, REQUIRE_BROWSER=1).
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const missing =
  fs.existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER === '1'
    ? false
    : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
const ARTIFACTS = path.resolve('test-artifacts', 'reader');

type Json = Record<string, any>;

// Page-side code runs in the browser; the project compiles without the DOM library.
declare const document: any;
declare const window: any;
declare const localStorage: any;
declare const getComputedStyle: any;

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };

describe('pages as a reader meets them', { skip: missing }, () => {
  let svc: TestService;
  let browser: Browser;
  let signals: Json;

  async function newPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    return context.newPage();
  }
  const loginOf = (s: Json): string => String(s.githubUrl).split('/')[3]!.toLowerCase();

  before(async () => {
    svc = await startTestService();
    signals = (await (await svc.get('/api/signals.json')).json()) as Json;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  test("a past week's startup page shows that week's signal type, evidence and sector neighbours, not this week's", async () => {
    // A startup whose signal type that week differs from its type now, so the two weeks cannot be confused.
    let found: { login: string; week: Json; now: Json } | undefined;
    for (const s of signals.trending as Json[]) {
      const history = (await (await svc.get(`/startups/${loginOf(s)}/history.json`)).json()) as Json;
      const week = (history.weeks as Json[]).find((w) => w.signalType !== s.signalType);
      if (week) {
        found = { login: loginOf(s), week, now: s };
        break;
      }
    }
    assert.ok(found, 'a trending startup whose signal type changed over the stored weeks');
    const page = await newPage();
    await page.goto(`${svc.url}/startups/${found.login}?period=${found.week.period}`);
    const why = (await page.locator('h2#evidence').textContent())!;
    assert.match(why, new RegExp(`^Why ${found.week.signalType}`));
    const main = (await page.locator('main').textContent())!;
    assert.doesNotMatch(main, new RegExp(`Why ${found.now.signalType}`));
    // The evidence line is the week's label, which names the week's type.
    const line = (await page.locator('h2#evidence + p').textContent())!;
    assert.ok(line.startsWith(found.week.signalType), line);
    // The neighbours are that week's, each linked to its page for that week.
    assert.match((await page.locator('h2#comparables').textContent())!, /Ranked next to it in .+, /);
    for (const href of await page
      .locator('h2#comparables + ul a')
      .evaluateAll((all: any[]) => all.map((a) => a.getAttribute('href'))))
      assert.match(href, new RegExp(`\\?period=${found.week.period}$`));
    await page.context().close();
  });
});
