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

// The page-side checks run in the browser: its globals, untyped here (the project compiles without the DOM library).
declare const document: any;
declare const window: any;
declare const NodeFilter: any;
declare const getComputedStyle: any;

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
    // Drawn twice (wide and narrow), one shown: at this width the wide one.
    const chart = page.locator('svg.chart-wide');
    assert.equal(await chart.count(), 1);
    assert.ok(await chart.isVisible());
    assert.equal(await page.locator('svg.chart-narrow').isVisible(), false);
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
    assert.equal(await page.locator('header.site nav.nav-wide').count(), 1);
    assert.match((await page.locator('main').textContent()) ?? '', /Card checkout is unavailable on this server/);
    await page.context().close();
  });

  test('the API reference lists the operations and tries a GET with its form', async () => {
    const page = await newPage();
    await page.goto(`${svc.url}/docs`);
    await page.locator('#getAnswer form input[name="q"]').fill('which startups are trending');
    await page.locator('#getAnswer form button').click();
    await page.waitForURL(/\/api\/answer\?q=/);
    assert.match((await page.textContent('body')) ?? '', /"question"/);
    await page.context().close();
  });

  test('the ask box on the home page answers with citations; the answer links to a dossier page', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${svc.url}/`);
    await page.getByLabel('Your question').fill('Who acquired GitHub?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.waitForURL(/\/ask\?q=/);
    assert.equal(await page.locator('#answer-h').textContent(), 'Who acquired GitHub?');
    assert.ok((await page.locator('.answer .facts li').count()) > 0);
    await page.locator('.answer a[href^="/diligence/"]').first().click();
    await page.waitForURL(/\/diligence\//);
    assert.match((await page.getByRole('heading', { level: 1 }).textContent()) ?? '', /diligence dossier/);
    await page.context().close();
  });

  test('a chart tells the week and values on keyboard focus and with the arrow keys', async () => {
    const login = ((await (await svc.get('/api/signals.json')).json()) as Json).trending[0].githubUrl.split('/')[3];
    const page = await newPage();
    await page.goto(`${svc.url}/startups/${login}`);
    const chart = page.locator('svg.chart-wide');
    await chart.focus();
    const tip = page.locator('.chart-tip').first();
    const last = await tip.innerText();
    assert.match(last, /^Week \d+, \d{4} \([^)]+\)\nCommits \(14d\) [\d,]+\nContributors [\d,]+$/);
    await page.keyboard.press('ArrowLeft');
    assert.notEqual(await tip.textContent(), last);
    await page.context().close();
  });

  test("on a phone, the week selector of a sector page shows an earlier week's ranking of the sector", async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${svc.url}/sectors/robotics`);
    const options = await page.locator('#period option').evaluateAll((all: any[]) => all.map((o) => o.value));
    assert.equal(options.length, periods);
    // Choosing a week shows it: no button to press with script (without it, the form's Show button does).
    await Promise.all([
      page.waitForURL(new RegExp(`/sectors/robotics\\?period=${options.at(-1)}$`)),
      page.selectOption('#period', options.at(-1)!),
    ]);
    assert.equal(await page.getByRole('note').filter({ hasText: 'as published that week' }).count(), 1);
    assert.ok((await page.locator('table.stack tbody tr').count()) > 0);
    await page.context().close();
  });

  test('a Scout look-up says at once that it is asking GitHub, and counts the seconds', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${svc.url}/scout`);
    // The progress line is the subject, not GitHub: the form is kept from leaving the page.
    await page.evaluate(() => window.addEventListener('submit', (e: any) => e.preventDefault()));
    await page.getByLabel('GitHub username').fill('octocat');
    await page.getByLabel('GitHub username').press('Enter');
    const status = page.getByRole('status');
    await status.waitFor();
    assert.match((await status.textContent())!, /^Asking GitHub for the public stars of octocat/);
    await page.waitForFunction(() => /\d+ s\.$/.test(document.getElementById('scout-busy').textContent));
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

  /** One page of each type. */
  async function pageTypes(): Promise<[string, string][]> {
    const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
    const [a, b] = signals.trending.map((t: Json) => t.githubUrl.split('/')[3].toLowerCase());
    const answer = ((await (await svc.get('/api/answer?q=which%20startups%20are%20trending')).json()) as Json).url;
    const changelog = (await (await svc.get('/api/changelog.json')).json()) as Json;
    const oldest = (changelog.periods as Json[]).map((p) => p.slug as string).sort()[0]!;
    return [
      ['home', '/'],
      ['startups', '/startups'],
      ['sectors', '/sectors'],
      ['sector', '/sectors/robotics'],
      ['sector-past-week', `/sectors/robotics?period=${oldest}`],
      ['startup', `/startups/${a}`],
      ['startup-past-week', `/startups/${a}?period=${oldest}`],
      ['compare', `/compare/${a}-vs-${b}`],
      ['compare-picker', '/compare'],
      ['ask', '/ask?q=who%20acquired%20github'],
      ['answer', new URL(answer).pathname],
      ['dossier', '/diligence/GitHub'],
      ['search', '/search?q=robotics'],
      ['faq', '/faq'],
      ['docs', '/docs'],
      ['pricing', '/pricing'],
      ['credits', '/agents/credits'],
      ['scout', '/scout'],
      ['periods', '/periods'],
      ['research', '/research'],
      ['markets', '/markets'],
      ['methodology', '/methodology'],
      ['backtest', '/backtest'],
      ['glossary', '/glossary'],
      ['blog', '/blog'],
    ];
  }

  test('axe finds no accessibility violation on any page type, light and dark, phone and desktop', async () => {
    const problems: string[] = [];
    for (const [, p] of await pageTypes()) {
      for (const [colorScheme, width] of [
        ['light', 1280],
        ['dark', 390],
      ] as const) {
        const page = await newPage({ width, height: 900 }, true);
        await page.emulateMedia({ colorScheme });
        await page.goto(`${svc.url}${p}`);
        const result = (await page.evaluate(`${AXE}\n;axe.run(document, { resultTypes: ['violations'] })`)) as {
          violations: { id: string; impact: string; nodes: unknown[] }[];
        };
        for (const v of result.violations)
          problems.push(`${p} (${colorScheme}, ${width}px): ${v.id} ×${v.nodes.length}`);
        await page.context().close();
      }
    }
    assert.deepEqual(problems, []);
  });

  test('at 360 px, 390 px and 1366 px: no sideways scrolling, no word broken mid-word, chart text of 11 px or more', async () => {
    const problems: string[] = [];
    for (const width of [360, 390, 1366]) {
      const page = await newPage({ width, height: 844 });
      for (const [, p] of await pageTypes()) {
        await page.goto(`${svc.url}${p}`);
        const r = (await page.evaluate(() => {
          const overflow = document.documentElement.scrollWidth - window.innerWidth;
          const broken: string[] = [];
          const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement!;
            if (el.closest('pre, code, svg, .visually-hidden') || el.getClientRects().length === 0) continue;
            // A word is what lies between spaces and hyphens (a line may break after a hyphen); URLs, and tokens too
            // long for any phone line, are left out.
            for (const m of n.textContent!.matchAll(/[^\s\-–—]+/g)) {
              if (m[0].length < 3 || m[0].length > 30 || m[0].includes('/')) continue;
              const range = document.createRange();
              range.setStart(n, m.index!);
              range.setEnd(n, m.index! + m[0].length);
              const lines = new Set(
                [...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)),
              );
              if (lines.size > 1) broken.push(m[0]);
            }
          }
          const small: string[] = [];
          for (const t of document.querySelectorAll('svg.chart text')) {
            const svg = t.closest('svg')!;
            const box = svg.getBoundingClientRect();
            if (box.width === 0) continue;
            const px = (parseFloat(getComputedStyle(t).fontSize) * box.width) / svg.viewBox.baseVal.width;
            if (px < 11) small.push(`${t.textContent} at ${px.toFixed(1)}px`);
          }
          // Tables made for phones (stacked rows, the comparison) show every column without scrolling inside.
          const hidden: string[] = [];
          for (const t of document.querySelectorAll('table.stack, table.compare')) {
            const box = t.parentElement;
            if (box.scrollWidth > box.clientWidth + 1)
              hidden.push(t.querySelector('caption')?.textContent.trim() ?? '');
          }
          return { overflow, broken, small, hidden };
        })) as { overflow: number; broken: string[]; small: string[]; hidden: string[] };
        if (r.overflow > 1) problems.push(`${p} at ${width}px scrolls sideways by ${r.overflow}px`);
        if (r.broken.length) problems.push(`${p} at ${width}px breaks ${r.broken.slice(0, 3).join(', ')}`);
        if (r.small.length) problems.push(`${p} at ${width}px: chart text ${r.small.slice(0, 2).join(', ')}`);
        if (r.hidden.length) problems.push(`${p} at ${width}px: table scrolls sideways: ${r.hidden.join('; ')}`);
      }
      await page.context().close();
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
      ['ask', '/ask?q=who%20acquired%20github'],
      ['dossier', '/diligence/GitHub'],
      ['startups', '/startups'],
      ['docs', '/docs'],
    ];
    for (const [label, width, height] of [
      ['phone-360', 360, 740],
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
