import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The website in a real browser: Debian's Chromium driven by playwright-core. `.ci/run` installs the package when it
 * is missing; elsewhere these tests are skipped with the reason (CHROMIUM_PATH points at another binary).
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// CI (REQUIRE_BROWSER=1) must run them: there a missing browser fails the run instead of skipping.
const missing =
  fs.existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER === '1'
    ? false
    : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
const ARTIFACTS = path.resolve('test-artifacts', 'screenshots');
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Json = Record<string, any>;

describe('website in a browser', { skip: missing }, () => {
  let svc: TestService;
  let browser: Browser;
  let periods: number;
  const consoleErrors: string[] = [];

  async function newPage(viewport = { width: 1280, height: 900 }, bypassCSP = false): Promise<Page> {
    const context = await browser.newContext({ viewport, bypassCSP });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) consoleErrors.push(`${page.url()}: ${r.status()} ${r.url()}`);
    });
    return page;
  }

  before(async () => {
    svc = await startTestService();
    periods = ((await (await svc.get('/api/changelog.json')).json()) as Json).periods.length;
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

  test('home → a sector → a startup whose chart has one point per stored period', async () => {
    const page = await newPage();
    await page.goto(`${svc.url}/`);
    await page.getByRole('main').getByRole('link', { name: 'Robotics', exact: true }).first().click();
    await page.waitForURL(/\/sectors\/robotics$/);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Robotics');
    await page.locator('table[data-sortable] tbody tr td a').first().click();
    await page.waitForURL(/\/startups\//);
    const chart = page.locator('svg.chart');
    assert.equal(await chart.count(), 1);
    assert.equal(await chart.locator('.series-a circle.point').count(), periods);
    assert.equal(await chart.locator('.series-b circle.point').count(), periods);
    await page.context().close();
  });

  test('sorting a sector table by a column reorders it, and again reverses it', async () => {
    const page = await newPage();
    await page.goto(`${svc.url}/sectors/robotics`);
    const header = page.getByRole('button', { name: /Commits/ });
    await header.click();
    const values = async () =>
      page
        .locator('tbody tr td:nth-child(4)')
        .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));
    const ascending = await values();
    assert.deepEqual(
      ascending,
      [...ascending].sort((a, b) => a - b),
    );
    assert.equal(await page.locator('th[aria-sort="ascending"]').count(), 1);
    await header.click();
    const descending = await values();
    assert.deepEqual(descending, [...ascending].reverse());
    await page.context().close();
  });

  test('searching for a startup by name lands on its page', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
    const name: string = signals.trending[3].name;
    const page = await newPage();
    await page.goto(`${svc.url}/`);
    await page.getByRole('searchbox').first().fill(name);
    await page.getByRole('button', { name: 'Search' }).first().click();
    await page.waitForURL(/\/search\?q=/);
    await page.locator('ol.results a[href^="/startups/"]').first().click();
    await page.waitForURL(/\/startups\//);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), name);
    await page.context().close();
  });

  test("the URL /api/answer gives for a question opens that answer's page", async () => {
    const hit = (await (await svc.get('/api/answer?q=which%20startups%20are%20trending')).json()) as Json;
    const page = await newPage();
    const res = await page.goto(hit.url);
    assert.equal(res?.status(), 200);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), hit.question);
    await page.context().close();
  });

  test('the credits page renders in the site layout and says whether card checkout is available', async () => {
    const page = await newPage();
    const res = await page.goto(`${svc.url}/agents/credits`);
    assert.equal(res?.status(), 200);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Deep Signal credit pack');
    assert.equal(await page.locator('header.site nav').count(), 1);
    assert.match((await page.locator('main').textContent()) ?? '', /Card checkout is unavailable on this server/);
    await page.context().close();
  });

  test('the API reference renders the OpenAPI document in the viewer', async () => {
    const page = await newPage();
    await page.goto(`${svc.url}/docs`);
    await page.locator('.opblock-summary-path', { hasText: '/api/signals.json' }).first().waitFor({ timeout: 20_000 });
    await page.context().close();
  });

  test('no page logged a console error', () => {
    assert.deepEqual(consoleErrors, []);
  });

  test('every internal link reachable from the home page answers 200', async () => {
    const seen = new Set<string>(['/']);
    const queue = ['/'];
    const broken: string[] = [];
    while (queue.length > 0 && seen.size < 5_000) {
      const url = queue.shift()!;
      const res = await svc.get(url, { headers: { accept: 'text/html' } });
      if (res.status !== 200) {
        broken.push(`${url} → ${res.status}`);
        continue;
      }
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) {
        await res.arrayBuffer();
        continue;
      }
      const body = await res.text();
      for (const m of body.matchAll(/href="([^"#]*)(?:#[^"]*)?"/g)) {
        const href = m[1]!.replace(/&#38;/g, '&');
        if (!href) continue;
        const target = new URL(href, `${svc.url}${url}`);
        if (target.origin !== svc.url) continue;
        const key = target.pathname + target.search;
        if (!seen.has(key)) {
          seen.add(key);
          queue.push(key);
        }
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(seen.size > 100, `crawled ${seen.size} links`);
  });

  test('axe finds no serious or critical accessibility violation on the key pages', async () => {
    const login = ((await (await svc.get('/api/signals.json')).json()) as Json).trending[0].githubUrl.split('/')[3];
    const problems: string[] = [];
    for (const p of ['/', '/sectors/robotics', `/startups/${login}`, '/faq', '/methodology', '/search?q=data']) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await newPage(undefined, true);
        await page.emulateMedia({ colorScheme });
        await page.goto(`${svc.url}${p}`);
        const result = (await page.evaluate(`${AXE}\n;axe.run(document, { resultTypes: ['violations'] })`)) as {
          violations: { id: string; impact: string; nodes: unknown[] }[];
        };
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical')
            problems.push(`${p} (${colorScheme}): ${v.id} ×${v.nodes.length}`);
        }
        await page.context().close();
      }
    }
    assert.deepEqual(problems, []);
  });

  test('screenshots of the key pages at phone and desktop widths', async () => {
    const login = ((await (await svc.get('/api/signals.json')).json()) as Json).trending[0].githubUrl.split('/')[3];
    const pages: [string, string][] = [
      ['home', '/'],
      ['sector', '/sectors/robotics'],
      ['startup', `/startups/${login}`],
      ['search', '/search?q=robotics'],
      ['docs', '/docs'],
    ];
    for (const [label, width, height] of [
      ['phone', 390, 844],
      ['desktop', 1280, 900],
    ] as const) {
      const page = await newPage({ width, height });
      for (const [name, p] of pages) {
        await page.goto(`${svc.url}${p}`, { waitUntil: 'networkidle' });
        const file = path.join(ARTIFACTS, `${name}-${label}.png`);
        await page.screenshot({ path: file, fullPage: true });
        assert.ok(fs.statSync(file).size > 5_000, file);
        // Nothing is wider than the viewport: the page reflows instead of scrolling sideways.
        const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
        assert.ok(overflow <= 1, `${name} at ${label} width overflows by ${overflow}px`);
      }
      await page.context().close();
    }
  });
});
