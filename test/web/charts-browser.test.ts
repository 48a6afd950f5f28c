import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { responsiveChart } from '../../src/web/charts.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The history charts of a startup's and a sector's page in Debian's Chromium through playwright-core: the range
 * control, the marked week, the shared read-out, with and without script, on a phone. Skipped, with the reason, where
 * no Chromium is installed (CI requires it, REQUIRE_BROWSER=1).
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const missing =
  fs.existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER === '1'
    ? false
    : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;

type Json = Record<string, any>;

// Page-side code runs in the browser; the project compiles without the DOM library.
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };

describe('history charts in a browser', { skip: missing }, () => {
  let svc: TestService;
  let browser: Browser;
  let login: string;
  let weeks: string[];
  const errors: string[] = [];

  async function newPage(viewport = DESKTOP, javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ viewport, javaScriptEnabled });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    return page;
  }
  /** The points of the first series on the chart drawn at this width. */
  const points = (page: Page) => page.locator('svg.chart:visible .series-a circle.point').count();

  before(async () => {
    svc = await startTestService();
    const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
    login = String(signals.trending[0].githubUrl).split('/')[3]!.toLowerCase();
    weeks = (((await (await svc.get('/api/changelog.json')).json()) as Json).periods as Json[])
      .map((p) => p.slug as string)
      .sort();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
    });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  test('the range control switches the chart between 13, 26 and every week without a reload', async () => {
    assert.ok(weeks.length > 26, `${weeks.length} stored weeks`);
    for (const path of [`/startups/${login}`, '/sectors/robotics']) {
      const page = await newPage();
      await page.goto(`${svc.url}${path}`);
      assert.equal(await points(page), weeks.length);
      await page.evaluate(() => (window.notReloaded = true));
      const control = page.getByRole('group', { name: 'Weeks on the chart:' });
      await control.getByRole('link', { name: '13 weeks' }).click();
      await page.waitForFunction(
        () => document.querySelectorAll('svg.chart-wide .series-a circle.point').length === 13,
      );
      assert.equal(await points(page), 13, path);
      assert.match(page.url(), /[?&]range=13#history$/);
      assert.equal(await control.getByRole('link', { name: '13 weeks' }).getAttribute('aria-current'), 'true');
      await control.getByRole('link', { name: '26 weeks' }).click();
      await page.waitForFunction(
        () => document.querySelectorAll('svg.chart-wide .series-a circle.point').length === 26,
      );
      await control.getByRole('link', { name: `All ${weeks.length} weeks` }).click();
      await page.waitForFunction(
        (n: number) => document.querySelectorAll('svg.chart-wide .series-a circle.point').length === n,
        weeks.length,
      );
      assert.equal(await page.evaluate(() => window.notReloaded), true, `${path} was not reloaded`);
      // The chosen link keeps the focus, and the new chart still reads out.
      assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-range')), 'all');
      await page.locator('svg.chart-wide').focus();
      assert.ok((await page.locator('.chart-tip').first().innerText()).includes('Commits (14d)'));
      await page.context().close();
    }
  });

  test('without script the range links load the page with that range, and the week picker keeps it', async () => {
    const page = await newPage(DESKTOP, false);
    await page.goto(`${svc.url}/startups/${login}`);
    await page.getByRole('link', { name: '13 weeks' }).click();
    await page.waitForURL(/\?range=13#history$/);
    assert.equal(await points(page), 13);
    await page.locator('select#period').selectOption(weeks[weeks.length - 3]!);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`\\?range=13&period=${weeks[weeks.length - 3]}$`));
    assert.equal(await points(page), 13);
    await page.context().close();
  });

  test("the chosen week is marked on the chart, inside the range even when it is older than the range's weeks", async () => {
    const old = weeks[3]!;
    for (const path of [`/startups/${login}`, '/sectors/robotics']) {
      const page = await newPage();
      await page.goto(`${svc.url}${path}?period=${old}&range=13`);
      const chart = page.locator('svg.chart-wide');
      assert.equal(await chart.locator('.mark').getAttribute('data-marked'), old.replace(/^\d{4}-w/, 'W'));
      assert.ok(await chart.locator('.mark').isVisible());
      assert.equal(await chart.locator('.series-a circle.point').count(), 13);
      // Its two points are drawn larger; pointing nowhere, focusing the chart reads out that week first.
      assert.equal(await chart.locator('circle.point[data-shown]').count(), 2);
      await chart.focus();
      const name = (await chart.getAttribute('data-names'))!.split('|')[3]!;
      assert.match(
        await page.locator('.chart-tip').first().innerText(),
        new RegExp(`^${name.replace(/[()]/g, '\\$&')}\\n`),
      );
      // Without ?period= the latest week is the marked one.
      await page.goto(`${svc.url}${path}?range=26`);
      assert.equal(
        await page.locator('svg.chart-wide .mark').getAttribute('data-marked'),
        weeks.at(-1)!.replace(/^\d{4}-w/, 'W'),
      );
      await page.context().close();
    }
  });

  test("pointing at a week shows one guide and one read-out of every series' value there, figures as in the table", async () => {
    const page = await newPage();
    await page.goto(`${svc.url}/sectors/robotics`);
    const chart = page.locator('svg.chart-wide');
    const index = weeks.length - 5;
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.locator(`.series-a circle.point[data-i="${index}"]`).boundingBox())!;
    const plot = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, plot.y + plot.height / 2);
    const tip = page.locator('.chart-tip').first();
    await tip.waitFor({ state: 'visible' });
    assert.equal(await page.locator('.chart-tip:visible').count(), 1);
    const guide = chart.locator('line.guide');
    assert.equal(await guide.getAttribute('visibility'), 'visible');
    assert.equal(
      await guide.getAttribute('x1'),
      await chart.locator(`.series-a circle.point[data-i="${index}"]`).getAttribute('cx'),
    );
    const lines = (await tip.innerText()).split('\n');
    // Moving away hides it.
    await page.mouse.move(5, 5);
    await tip.waitFor({ state: 'hidden' });
    assert.equal(await guide.getAttribute('visibility'), 'hidden');
    // The table's row of that week, with the same figures as the read-out.
    await page.getByText('The figures as a table').click();
    const cells = (await page.locator('#sector-chart-box table tbody tr').nth(index).locator('td').allInnerTexts()).map(
      (t) => t.trim(),
    );
    assert.equal(cells[0], weeks[index]);
    assert.match(lines[0]!, new RegExp(`^Week ${Number(weeks[index]!.slice(-2))}, \\d{4} \\(`));
    assert.deepEqual(lines.slice(1), [`Commits (14d) ${cells[1]}`, `Contributors ${cells[2]}`]);
    assert.match(cells[1]!, /^\d{1,3}(,\d{3})+$/, 'a sector sums to thousands of commits');
    await page.context().close();
  });

  test('the read-out follows the keyboard: ← → Home End move it week by week', async () => {
    const page = await newPage();
    await page.goto(`${svc.url}/startups/${login}?range=13`);
    const chart = page.locator('svg.chart-wide');
    await chart.focus();
    const tip = page.locator('.chart-tip').first();
    const names = (await chart.getAttribute('data-names'))!.split('|');
    const week = async () => (await tip.innerText()).split('\n')[0];
    assert.equal(await week(), names.at(-1));
    await page.keyboard.press('ArrowLeft');
    assert.equal(await week(), names.at(-2));
    await page.keyboard.press('Home');
    assert.equal(await week(), names[0]);
    await page.keyboard.press('End');
    assert.equal(await week(), names.at(-1));
    await page.context().close();
  });

  test('at 360 px the range control and the read-out stay on screen, nothing scrolls sideways', async () => {
    for (const path of [`/startups/${login}?period=${weeks[2]}&range=13`, '/sectors/robotics?range=26']) {
      const page = await newPage(PHONE);
      await page.goto(`${svc.url}${path}`);
      const chart = page.locator('svg.chart-narrow');
      assert.ok(await chart.isVisible(), path);
      await chart.scrollIntoViewIfNeeded();
      const links = page.getByRole('group', { name: 'Weeks on the chart:' }).getByRole('link');
      assert.equal(await links.count(), 3, path);
      for (const box of await links.evaluateAll((all: any[]) => all.map((a) => a.getBoundingClientRect().toJSON())))
        assert.ok(box.right <= PHONE.width && box.height >= 24, `${path}: range link ${JSON.stringify(box)}`);
      const dots = chart.locator('.series-a circle.point');
      for (const i of [0, (await dots.count()) - 1]) {
        const dot = (await dots.nth(i).boundingBox())!;
        await page.mouse.move(dot.x + dot.width / 2, dot.y + dot.height / 2);
        const tip = (await page.locator('.chart-tip:visible').boundingBox())!;
        assert.equal((await page.locator('.chart-tip:visible').innerText()).split('\n').length, 3);
        assert.ok(
          tip.x >= 0 && tip.x + tip.width <= PHONE.width,
          `${path}: read-out at point ${i} ${JSON.stringify(tip)}`,
        );
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= PHONE.width, `${path}: page ${wide} px wide`);
      await page.context().close();
    }
  });

  /**
   * What is wrong with the legends of the charts drawn at this width: an entry's text clipped by the drawing's edge,
   * two entries (or an entry and the shown week's label) drawn over each other, two series told apart by colour only,
   * the shown week's label covered by a series.
   */
  const legendProblems = (page: Page): Promise<string[]> =>
    page.evaluate(() => {
      const problems: string[] = [];
      for (const svg of document.querySelectorAll('svg.chart')) {
        if (!svg.getClientRects().length) continue;
        const edge = svg.getBoundingClientRect();
        const entries = [...svg.querySelectorAll('.legend')];
        const boxes = entries.map((g: any) => ({
          name: g.querySelector('text').textContent,
          text: g.querySelector('text').getBoundingClientRect(),
          all: g.getBoundingClientRect(),
          dash: getComputedStyle(g.querySelector('line')).strokeDasharray,
        }));
        for (const b of boxes)
          if (b.all.left < edge.left - 0.5 || b.all.right > edge.right + 0.5 || b.all.top < edge.top - 0.5)
            problems.push(`"${b.name}" clipped (${Math.round(b.all.right - edge.right)} px past the edge)`);
        const mark = svg.querySelector('.mark text');
        const others = [...boxes.map((b) => ({ name: b.name, box: b.all }))];
        if (mark) others.push({ name: mark.textContent, box: mark.getBoundingClientRect() });
        for (let i = 0; i < others.length; i++)
          for (let j = i + 1; j < others.length; j++) {
            // No named helper: page-side code must not carry the compiler's function-name wrapper.
            const [a, b] = [others[i]!.box, others[j]!.box];
            if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
              problems.push(`"${others[i]!.name}" over "${others[j]!.name}"`);
          }
        if (new Set(boxes.map((b) => b.dash)).size < boxes.length) problems.push('two series with the same dash');
        if (mark) {
          const r = mark.getBoundingClientRect();
          for (let k = 1; k < 8; k++) {
            const hit = document.elementFromPoint(r.left + (r.width * k) / 8, r.top + r.height / 2);
            if (hit && hit.closest('.series')) problems.push(`"${mark.textContent}" covered by a series at ${k}/8`);
          }
        }
      }
      return problems;
    });

  test("on a 360 px phone and at 1366 px every chart's legend is whole, nothing drawn over it, series told apart by dash", async () => {
    const other = String(((await (await svc.get('/api/signals.json')).json()) as Json).trending[1].githubUrl)
      .split('/')[3]!
      .toLowerCase();
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(viewport);
      for (const path of [
        `/startups/${login}`,
        `/startups/${login}?period=${weeks[3]}`,
        '/sectors/robotics',
        `/compare/${login}-vs-${other}`,
      ]) {
        await page.goto(`${svc.url}${path}`);
        const chart = page.locator('svg.chart:visible').first();
        await chart.scrollIntoViewIfNeeded();
        assert.deepEqual(await legendProblems(page), [], `${viewport.width} px ${path}`);
      }
      await page.context().close();
    }
  });

  test('a comparison of two long names keeps both legend entries whole or cut with "…", never clipped or overlapping', async () => {
    const labels = weeks.map((w) => `W${w.slice(-2)}`);
    const values = (k: number) => weeks.map((_, i) => 40 + ((i * k) % 17) * 90);
    const first = 'Internationale Kreditversicherungsgesellschaft Holding Europe';
    const chart = responsiveChart({
      title: 'Two long names',
      id: 'long',
      labels,
      sharedAxis: true,
      marked: labels.length - 1,
      series: [
        { name: first, values: values(3), className: 'series-a' },
        { name: 'Northwind Quantum Materials Laboratories', values: values(5), className: 'series-b' },
      ],
    }).value;
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(viewport);
      // Any page of the site: its stylesheet draws the chart.
      await page.goto(`${svc.url}/faq`);
      await page.evaluate((markup: string) => {
        document.querySelector('main').insertAdjacentHTML('afterbegin', markup);
        window.scrollTo(0, 0);
      }, chart);
      assert.deepEqual(await legendProblems(page), [], `${viewport.width} px`);
      // A name cut to fit keeps its whole text as the entry's tooltip.
      const entry = page.locator('svg.chart:visible .legend.series-a').first();
      const shown = (await entry.locator('text').textContent())!;
      if (shown !== first) {
        assert.match(shown, /…$/);
        assert.equal(await entry.locator('title').textContent(), first);
      }
      await page.context().close();
    }
  });

  test('no chart page logged an error', () => {
    assert.deepEqual(errors, []);
  });
});
