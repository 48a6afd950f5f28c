import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { issueKey } from '../../src/payments/keys.js';
import { readSiteAssets } from '../../src/web/assets.js';
import { creditsPage } from '../../src/web/pages/payments.js';
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

describe('pages as a reader meets them', { skip: missing, concurrency: 3 }, () => {
  let svc: TestService;
  let browser: Browser;
  let signals: Json;

  async function newPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    return context.newPage();
  }
  const loginOf = (s: Json): string => String(s.githubUrl).split('/')[3]!.toLowerCase();

  /** One page of each type a reader meets. */
  async function pageTypes(): Promise<string[]> {
    const [a, b] = (signals.trending as Json[]).map(loginOf);
    const answer = ((await (await svc.get('/api/answer?q=which%20startups%20are%20trending')).json()) as Json).url;
    const periods = ((await (await svc.get('/api/changelog.json')).json()) as Json).periods as Json[];
    const oldest = periods.map((p) => p.slug as string).sort()[0]!;
    return [
      '/',
      '/startups',
      '/sectors',
      '/sectors/robotics',
      `/sectors/robotics?period=${oldest}`,
      `/startups/${a}`,
      `/startups/${a}?period=${oldest}`,
      `/compare/${a}-vs-${b}`,
      '/compare',
      '/ask?q=who%20acquired%20github',
      new URL(answer).pathname,
      '/diligence/GitHub',
      '/search?q=robotics',
      '/faq',
      '/docs',
      '/pricing',
      '/agents/credits',
      '/alerts',
      '/scout',
      '/periods',
      '/research',
      '/markets',
      '/methodology',
      '/glossary',
      '/blog',
    ];
  }

  before(async () => {
    svc = await startTestService({
      ALERTS_SECRET: 'reader-test-alerts-secret-0123456789-abcdef',
      // Paying without a card: the operator's contact, x402 and Solana configured (nothing is paid in these tests).
      OPERATOR_CONTACT: 'keys@operator.example',
      X402_PAY_TO: '0x1111111111111111111111111111111111111111',
      SOLANA_PAY_TO: 'So11111111111111111111111111111111111111112',
    });
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
      // A week with evidence for its type: a week without any shows "No clear signal" instead of its type.
      const week = (history.weeks as Json[]).find(
        (w) => w.signalType !== s.signalType && (w.signalStrength ?? 'strong') !== 'none',
      );
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

  test('on a 360 px phone the header is one row and the first screen reaches the title, on the home page a ranking row', async () => {
    const page = await newPage(PHONE);
    const problems: string[] = [];
    // After a first visit, which shows the synthetic-data notice in full.
    await page.goto(`${svc.url}/faq`);
    for (const p of await pageTypes()) {
      await page.goto(`${svc.url}${p}`);
      const header = (await page.locator('header.site').boundingBox())!;
      if (header.height > 60) problems.push(`${p}: header ${header.height}px tall`);
      const h1 = (await page.locator('h1').first().boundingBox())!;
      if (h1.y > 200) problems.push(`${p}: title at y=${h1.y}`);
    }
    await page.goto(`${svc.url}/`);
    const row = (await page.locator('main table tbody tr').first().boundingBox())!;
    if (row.y + 40 > PHONE.height) problems.push(`/: first ranking row at y=${row.y}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'home-first-screen-360.png') });
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test("on a phone the menu opens the site's navigation and search", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${svc.url}/`);
    assert.equal(await page.locator('header .nav-narrow nav a').first().isVisible(), false);
    await page.locator('header .nav-narrow summary').click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sectors' }).click();
    await page.waitForURL(/\/sectors$/);
    await page.locator('header .nav-narrow summary').click();
    await page.getByRole('searchbox').fill('robotics');
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(/\/search\?q=robotics/);
    await page.context().close();
  });

  test("the synthetic notice is in full on a first visit, one line after it, and 'Got it' shortens it at once", async () => {
    const page = await newPage(PHONE);
    const notice = page.locator('.notice.synthetic');
    await page.goto(`${svc.url}/sectors`);
    assert.ok(await notice.getByText('they are not real companies or real GitHub data').isVisible());
    const full = (await notice.boundingBox())!.height;
    await page.getByRole('button', { name: 'Got it' }).click();
    const brief = (await notice.boundingBox())!.height;
    assert.ok(brief < 40 && brief < full, `${full}px → ${brief}px`);
    assert.match((await notice.innerText())!, /^Synthetic demo data\. Not real companies\.$/);
    await page.goto(`${svc.url}/`);
    assert.ok((await notice.boundingBox())!.height < 40);
    await page.context().close();

    // A first visit that is not dismissed is remembered too: the next page shows the one line.
    const other = await newPage(PHONE);
    await other.goto(`${svc.url}/`);
    assert.ok(await other.locator('.notice-long').isVisible());
    await other.goto(`${svc.url}/sectors/robotics`);
    assert.equal(await other.locator('.notice-long').isVisible(), false);
    assert.ok(await other.locator('.notice-short').isVisible());
    assert.equal(await other.evaluate(() => localStorage.getItem('signal-service.synthetic-notice')), 'seen');
    await other.context().close();

    // Without script nothing is remembered and there is no button that would do nothing.
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${svc.url}/`);
    await plain.goto(`${svc.url}/sectors`);
    assert.ok(await plain.locator('.notice-long').isVisible());
    assert.equal(await plain.getByRole('button', { name: 'Got it' }).isVisible(), false);
    await context.close();
  });

  test('at 1366 px the header is one row of the same height on every page type', async () => {
    const page = await newPage(DESKTOP);
    const heights = new Map<string, number>();
    for (const p of await pageTypes()) {
      await page.goto(`${svc.url}${p}`);
      heights.set(p, Math.round((await page.locator('header.site').boundingBox())!.height));
    }
    const distinct = new Set(heights.values());
    assert.equal(distinct.size, 1, JSON.stringify(Object.fromEntries(heights)));
    assert.ok([...distinct][0]! <= 64, `${[...distinct][0]}px`);
    await page.context().close();
  });

  test('on a 360 px phone no link of the header menu or the footer and no form control is under 24 px', async () => {
    const page = await newPage(PHONE);
    const problems: string[] = [];
    for (const p of await pageTypes()) {
      await page.goto(`${svc.url}${p}`);
      const menu = page.locator('header .nav-narrow summary');
      if (await menu.isVisible()) await menu.click();
      const small = (await page.evaluate(() => {
        const found: string[] = [];
        const targets = document.querySelectorAll(
          'header a, header summary, header button, header input, footer a, main button, main input:not([type="hidden"]), main select, main summary',
        );
        for (const el of targets) {
          const box = el.getBoundingClientRect();
          if (box.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
          if (box.height < 24 || box.width < 24)
            found.push(
              `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('name') || '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
            );
        }
        return found;
      })) as string[];
      for (const x of small) problems.push(`${p}: ${x}`);
    }
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('on a 360 px phone no table scrolls sideways inside its box, so no column is off-screen', async () => {
    const page = await newPage(PHONE);
    const problems: string[] = [];
    for (const p of await pageTypes()) {
      await page.goto(`${svc.url}${p}`);
      const hidden = (await page.evaluate(() => {
        const found: string[] = [];
        for (const t of document.querySelectorAll('main table')) {
          const box = t.parentElement;
          if (t.getBoundingClientRect().width === 0) continue;
          const last = t.querySelector('thead th:last-child');
          const right = last ? last.getBoundingClientRect().right : 0;
          if (box.scrollWidth > box.clientWidth + 1 || right > window.innerWidth + 1)
            found.push(
              `${(t.querySelector('caption')?.textContent ?? '').trim().slice(0, 50)} (${box.scrollWidth} > ${box.clientWidth})`,
            );
        }
        return found;
      })) as string[];
      for (const x of hidden) problems.push(`${p}: ${x}`);
    }
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('at 1366 px a ranking row keeps its name, signal and movement on one line, and a screen shows ten rows or more', async () => {
    const page = await newPage(DESKTOP);
    const problems: string[] = [];
    for (const p of ['/', '/startups', '/sectors/robotics']) {
      await page.goto(`${svc.url}${p}`);
      const r = (await page.evaluate(() => {
        const wrapped: string[] = [];
        const rows = [...document.querySelectorAll('table.stack tbody tr')];
        for (const tr of rows)
          for (const td of tr.querySelectorAll('td.lead, td.signal, td.nowrap')) {
            const range = document.createRange();
            range.selectNodeContents(td);
            // Lines are told apart by the middle of each box: smaller text on the same line sits a little lower.
            const middles = [...range.getClientRects()]
              .filter((x: any) => x.width > 1)
              .map((x: any) => (x.top + x.bottom) / 2);
            if (Math.max(...middles) - Math.min(...middles) > 8)
              wrapped.push(td.textContent.trim().replace(/\s+/g, ' '));
          }
        const box = document.querySelector('table.stack').parentElement;
        return {
          wrapped,
          visible: rows.filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight).length,
          scrolls: box.scrollWidth > box.clientWidth + 1,
        };
      })) as { wrapped: string[]; visible: number; scrolls: boolean };
      if (r.wrapped.length) problems.push(`${p}: wraps ${r.wrapped.slice(0, 3).join(' | ')}`);
      if (r.scrolls) problems.push(`${p}: the table scrolls sideways`);
      if (p === '/' && r.visible < 10) problems.push(`${p}: ${r.visible} rows on the first screen`);
    }
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a sector ranking marks the startups below the activity floor and says why they rank below lower scores', async () => {
    const all = (await (await svc.get('/api/signals.json')).json()) as Json;
    const sector = (all.sectors as Json[]).find((x) =>
      (x.startups as Json[]).some((r) => r.commitVelocity14d < 20 || r.contributors < 2),
    )?.slug as string;
    assert.ok(sector, 'a sector with a startup below the activity floor');
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/sectors/${sector}`);
    const table = (await page.evaluate(() =>
      [...document.querySelectorAll('table.stack tbody tr')].map((tr: any) => ({
        score: Number(tr.querySelector('td[data-label="Score"]').getAttribute('data-value')),
        marked: /below floor/.test(tr.textContent),
      })),
    )) as { score: number; marked: boolean }[];
    assert.ok(table.some((r) => r.marked));
    // Every marked row comes after every unmarked one, and a score above the row before it is always explained.
    const firstMarked = table.findIndex((r) => r.marked);
    assert.ok(table.slice(firstMarked).every((r) => r.marked));
    table.forEach((r, i) => {
      if (i > 0 && r.score > table[i - 1]!.score && !table[i - 1]!.marked) assert.ok(r.marked, `row ${i + 1}`);
    });
    const note = page.locator('#below-floor');
    assert.ok(await note.isVisible());
    assert.match((await note.textContent())!, /fewer than 20 commits in 14 days or fewer\s+than 2 contributors/);
    await page.locator('tr.below-floor a.floor-tag').first().click();
    assert.match(page.url(), /#below-floor$/);
    await page.context().close();
  });

  test('the alerts form: large labelled boxes on one line, a refusal in plain words, success and delete styled as such', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 1, reason: 'test' });
    const page = await newPage(PHONE);
    await page.goto(`${svc.url}/alerts`);
    assert.doesNotMatch((await page.locator('.lede').textContent())!, /e-mail/);
    await page.getByLabel('Your credit-pack key').fill(key);
    await page.getByRole('button', { name: 'Show my subscriptions' }).click();
    await page.waitForLoadState();
    const boxes = (await page.evaluate(() =>
      [...document.querySelectorAll('input[type="checkbox"]')].map((b: any) => {
        // The box and the first line of its label share a line.
        const text = [...b.closest('label').childNodes].find((n: any) => n.nodeType === 3 && n.textContent.trim());
        const range = document.createRange();
        range.selectNodeContents(text);
        const first = [...range.getClientRects()].find((x: any) => x.width > 1);
        const box = b.getBoundingClientRect();
        return { size: box.height, spread: Math.abs((first.top + first.bottom) / 2 - (box.top + box.bottom) / 2) };
      }),
    )) as { size: number; spread: number }[];
    assert.ok(boxes.length > 10);
    for (const b of boxes) assert.ok(b.size >= 24 && b.spread <= 8, JSON.stringify(b));

    await page.getByRole('checkbox', { name: 'Any startup entering the trending top 20' }).check();
    await page.getByLabel('Webhook URL').evaluate((el: any) => el.setAttribute('type', 'text'));
    await page.getByLabel('Webhook URL').fill('not a web address');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForLoadState();
    const refusal = page.getByRole('alert');
    const text = (await refusal.textContent())!;
    assert.match(text, /^Not created\. Webhook URL: /);
    assert.doesNotMatch(text, /webhookUrl|watch\./);
    assert.match((await refusal.getAttribute('class'))!, /\bdanger\b/);

    await page.getByRole('checkbox', { name: 'Any startup entering the trending top 20' }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForLoadState();
    const done = page.getByRole('status').filter({ hasText: 'created' });
    assert.match((await done.getAttribute('class'))!, /\bsuccess\b/);
    const del = page.getByRole('button', { name: 'Delete' });
    const look = (await del.evaluate((b: any) => getComputedStyle(b).backgroundColor)) as string;
    assert.equal(look, 'rgba(0, 0, 0, 0)', 'Delete is outlined, not the primary filled button');
    await page.context().close();
  });

  test("an alert for a startup's name watches that one tracked startup and says so; an untracked name is refused", async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 1, reason: 'test' });
    const name: string = signals.trending[0].name;
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/alerts`);
    await page.getByLabel('Your credit-pack key').fill(key);
    await page.getByRole('button', { name: 'Show my subscriptions' }).click();
    await page.waitForLoadState();
    await page.getByLabel(/^Startups/).fill('Nobody Tracks This Org');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForLoadState();
    assert.match(
      (await page.getByRole('alert').textContent())!,
      /“Nobody Tracks This Org” is not a startup this service tracks/,
    );
    assert.equal(await page.locator('main tbody tr').count(), 0);
    await page.getByLabel(/^Startups/).fill(name);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForLoadState();
    assert.match(
      (await page.getByRole('status').filter({ hasText: 'created' }).textContent())!,
      new RegExp(`You are watching ${name}\\.`),
    );
    const watches = (await page.locator('main tbody tr td:nth-child(2)').allTextContents()).map((t) => t.trim());
    assert.deepEqual(watches, [`startups: ${signals.trending[0].githubUrl.split('/')[3].toLowerCase()}`]);
    await page.context().close();
  });
  test('figures make sense: no percent against nothing, chart axes grouped like the tables, downloads named and numeric', async () => {
    const page = await newPage(DESKTOP);
    const problems: string[] = [];
    // Every startup of two sectors: their evidence lines name a count against the prior window's.
    for (const sector of (signals.sectors as Json[]).slice(0, 2))
      for (const s of sector.startups as Json[]) {
        await page.goto(`${svc.url}/startups/${loginOf(s)}`);
        const text = (await page.locator('main').textContent())!;
        for (const m of text.match(/against 0 \([^)]*\)/g) ?? []) problems.push(`${loginOf(s)}: ${m}`);
      }
    // Chart axes print figures as the tables do: 2,364, never 3500.
    const ticks: string[] = [];
    for (const p of await pageTypes()) {
      await page.goto(`${svc.url}${p}`);
      ticks.push(
        ...((await page
          .locator('svg.chart .axis text')
          .evaluateAll((all: any[]) => all.map((t) => t.textContent.trim()))) as string[]),
      );
    }
    assert.ok(
      ticks.some((t) => /^\d{1,3}(,\d{3})+$/.test(t)),
      `an axis reaching a thousand: ${[...new Set(ticks)].slice(0, 20).join(' ')}`,
    );
    for (const t of new Set(ticks)) if (/^\d{4,}/.test(t)) problems.push(`axis tick ${t}`);
    assert.deepEqual(problems, []);

    // A startup's weeks download under its own name, the changes as numbers of percent.
    const login = loginOf(signals.trending[0]);
    await page.goto(`${svc.url}/startups/${login}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('a[href$="/history.csv"]').first().click(),
    ]);
    assert.equal(download.suggestedFilename(), `${login}-history.csv`);
    const csv = fs
      .readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    const header = csv[0]!.split(',');
    for (const column of ['commitVelocityChangePct', 'contributorGrowthPct']) {
      const at = header.indexOf(column);
      assert.ok(at >= 0, `${column} in ${csv[0]}`);
      for (const row of csv.slice(1)) assert.match(row.split(',')[at]!, /^-?\d+(\.\d+)?$/, row);
    }
    await page.goto(`${svc.url}/sectors/robotics`);
    const [ranking] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('a[href$="/ranking.csv"]').first().click(),
    ]);
    assert.match(ranking.suggestedFilename(), /^robotics-ranking-\d{4}-w\d{2}\.csv$/);
    await page.context().close();
  });
  test('an answer reads as a list: each startup linked, sources named as pages, no internal score, only rises for "accelerating"', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/ask?q=${encodeURIComponent('Which startups are trending this week?')}`);
    const answer = page.locator('section.answer');
    const rows = answer.locator('table tbody tr');
    assert.ok((await rows.count()) >= 5, 'the trending startups as table rows');
    for (const href of await rows.evaluateAll((all: any[]) =>
      all.map((tr) => tr.querySelector('a')?.getAttribute('href')),
    ))
      assert.match(href ?? '', /^\/startups\/[a-z0-9-]+$/);
    const text = (await answer.textContent())!;
    assert.doesNotMatch(text, /confidence|\d\.\d\d \(how much/i);
    const sources = (await answer
      .locator('.facts a')
      .evaluateAll((all: any[]) => all.map((a) => [a.textContent.trim(), a.getAttribute('href')]))) as string[][];
    assert.ok(sources.length > 0);
    for (const [label, href] of sources) {
      assert.notEqual(label, 'source');
      assert.doesNotMatch(href!, /^\/api\/|\.json$/, `${label} → ${href}`);
    }
    assert.doesNotMatch((await page.locator('main').textContent())!, /confidence \d/);

    // "Accelerating" is a rise: a startup whose commits fell is not listed under it.
    for (const path of [
      `/ask?q=${encodeURIComponent('Which are the fastest accelerating Robotics startups?')}`,
      '/answers/fastest-accelerating-robotics',
    ]) {
      await page.goto(`${svc.url}${path}`);
      const changes = (await page.locator('main table.answer-startups td[data-label="Change"]').allTextContents()).map(
        (t) => t.trim(),
      );
      for (const c of changes) assert.match(c, /^\+/, `${path}: ${changes.join(' ')}`);
      const facts = (await page.locator('main .facts').textContent())!;
      assert.doesNotMatch(facts, /\(-\d+% versus/, path);
    }
    await page.context().close();
  });
  test('search and the ask box put a tracked startup first for its name, its first word and a typo', async () => {
    const s = (signals.trending as Json[]).find((x) => /^\p{L}{5,} \p{L}+/u.test(x.name))!;
    const name: string = s.name;
    const first = name.split(' ')[0]!;
    const typo = `${name.slice(0, 2)}${name[3]}${name[2]}${name.slice(4)}`;
    const page = await newPage(DESKTOP);
    const problems: string[] = [];
    for (const q of [name, first, typo])
      for (const path of ['/search', '/ask']) {
        await page.goto(`${svc.url}${path}?q=${encodeURIComponent(q)}`);
        // The first link after the page's own form.
        const href = (await page.evaluate(() => {
          const form = document.querySelector('main form');
          const links = [...document.querySelectorAll('main a')].filter(
            (a: any) => !form.contains(a) && form.compareDocumentPosition(a) & 4,
          );
          return links[0]?.getAttribute('href') ?? null;
        })) as string | null;
        if (href !== `/startups/${loginOf(s)}`) problems.push(`${path}?q=${q}: first link ${href}`);
        if (q !== name) {
          const offer = page.locator('main .did-you-mean');
          if (!(await offer.count()) || !/^Did you mean/.test((await offer.first().textContent())!.trim()))
            problems.push(`${path}?q=${q}: no "did you mean"`);
        }
      }
    assert.deepEqual(problems, []);
    await page.context().close();
  });
  test('pickers: weeks by name and dates, shown on choosing without a button, marked on the chart; "did you mean" is a link', async () => {
    const [a, b] = signals.trending as [Json, Json];
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/startups/${loginOf(a)}`);
    const options = (await page.locator('select#period option').allTextContents()).map((t) => t.trim());
    assert.ok(options.length > 2);
    for (const o of options)
      assert.match(o, /^Week \d{1,2}, \d{4} \(\d{1,2}.*\d{1,2} [A-Z][a-z]{2}\)( \(current\))?$/, o);
    assert.equal(await page.getByRole('button', { name: 'Show' }).isVisible(), false);
    const week = (await page.locator('select#period option').nth(2).getAttribute('value'))!;
    await Promise.all([page.waitForURL(new RegExp(`\\?period=${week}$`)), page.selectOption('select#period', week)]);
    const marked = await page.locator('svg.chart-wide .mark').getAttribute('data-marked');
    assert.equal(marked, week.replace(/^\d{4}-w/, 'W'));
    await page.goto(`${svc.url}/sectors/robotics?period=${week}`);
    assert.equal(await page.locator('svg.chart-wide .mark').getAttribute('data-marked'), marked);

    // Without script the button is there to press.
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${svc.url}/startups/${loginOf(a)}`);
    assert.ok(await plain.getByRole('button', { name: 'Show' }).isVisible());
    await context.close();

    // The compare picker offers a near name as a link that compares it.
    const typo = `${a.name.slice(0, 2)}${a.name[3]}${a.name[2]}${a.name.slice(4)}`;
    await page.goto(`${svc.url}/compare?a=${encodeURIComponent(typo)}&b=${encodeURIComponent(b.name)}`);
    await page.getByRole('link', { name: a.name, exact: true }).first().click();
    await page.waitForURL(new RegExp(`/compare/${loginOf(a)}-vs-${loginOf(b)}$`));
    await page.context().close();
  });
  test("a fictional startup's page links no empty dossier, and its dossier says nothing is documented under its page", async () => {
    const s = signals.trending[0] as Json;
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/startups/${loginOf(s)}`);
    assert.equal(await page.locator('main a[href^="/diligence/"]').count(), 0);
    await page.goto(`${svc.url}/search?q=${encodeURIComponent(s.name)}`);
    assert.equal(await page.locator('main a[href^="/diligence/"]').count(), 0);
    await page.goto(`${svc.url}/diligence/${encodeURIComponent(s.name)}`);
    const main = (await page.locator('main').textContent())!;
    assert.doesNotMatch(main, /None documented/);
    assert.match(main, /Nothing is documented for/);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    assert.deepEqual(await crumbs.locator('a').evaluateAll((all: any[]) => all.map((a) => a.getAttribute('href'))), [
      '/startups',
      `/startups/${loginOf(s)}`,
    ]);
    assert.doesNotMatch((await crumbs.textContent())!, /Ask/);
    // A documented company keeps its sections.
    await page.goto(`${svc.url}/diligence/GitHub`);
    assert.ok(await page.locator('h2#acquired-by').isVisible());
    await page.context().close();
  });
  test('without card checkout the credits page offers x402 and Solana with requests to copy, and the operator when set', async () => {
    const page = await newPage(PHONE);
    await page.goto(`${svc.url}/agents/credits`);
    assert.ok(await page.getByText('Card checkout is unavailable on this server.').isVisible());
    const examples = (await page.locator('main pre code').allTextContents()).join('\n');
    assert.match(examples, /curl -i -X POST http:\/\/127\.0\.0\.1:\d+\/api\/agent\/deep-signal\/x402/);
    assert.match(examples, /-d '\{"name":"Zepatra Cloud"\}'/);
    assert.match(examples, /\/api\/agent\/deep-signal\/solana/);
    assert.match(examples, /"signature":/);
    const contact = page.getByRole('link', { name: 'keys@operator.example' });
    assert.equal(await contact.getAttribute('href'), 'mailto:keys@operator.example');
    assert.doesNotMatch((await page.locator('main').textContent())!, /Ask the operator/);
    await page.context().close();
    // Unset, no contact is shown.
    const plain = creditsPage({
      baseUrl: 'http://x.example',
      assets: readSiteAssets(),
      checkoutAvailable: false,
      mail: false,
    });
    assert.doesNotMatch(plain, /From the operator|mailto:/);
  });
  test('pricing links every tier to the way to buy it, and the credits page has the places they point to', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/pricing`);
    const tiers = page.locator('main ul.cards > li');
    const count = await tiers.count();
    assert.ok(count >= 4);
    for (let i = 0; i < count; i++) {
      const href = await tiers.nth(i).locator('a.buy').getAttribute('href');
      assert.ok(href, `tier ${i + 1} has a way to buy`);
      if (href.startsWith('/agents/credits#')) {
        await page.goto(`${svc.url}${href}`);
        assert.ok(await page.locator(href.slice(href.indexOf('#'))).isVisible(), href);
        await page.goto(`${svc.url}/pricing`);
      }
    }
    await page.context().close();
  });
  test('/docs: a side navigation with one entry per operation, mirrors noted beside their original, a curl for each', async () => {
    const doc = (await (await svc.get('/api/openapi.json')).json()) as Json;
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/docs`);
    const nav = page.getByRole('navigation', { name: 'Operations' });
    const entries = (await nav
      .locator('li a')
      .evaluateAll((all: any[]) => all.map((a) => a.getAttribute('href')))) as string[];
    const ids = (await page
      .locator('section.operation')
      .evaluateAll((all: any[]) => all.map((s) => `#${s.id}`))) as string[];
    assert.deepEqual(entries, ids, 'one entry per operation, in the page order');
    assert.equal(new Set(ids).size, ids.length);
    // /api/v1/signals.json is the same operation as /api/signals.json: noted beside it, not listed twice.
    const headings = await page.locator('section.operation h3 code').allTextContents();
    assert.ok(headings.includes('/api/signals.json'));
    assert.ok(!headings.includes('/api/v1/signals.json'));
    assert.ok(doc.paths['/api/v1/signals.json'], 'the document has the mirror');
    const signals = page.locator('section.operation', {
      has: page.locator('h3 code', { hasText: /^\/api\/signals\.json$/ }),
    });
    assert.match((await signals.textContent())!, /Also at \/api\/v1\/signals\.json/);
    // Every operation has a curl to copy; one that needs a key sends it.
    assert.equal(await page.locator('section.operation pre.curl').count(), ids.length);
    const deep = page.locator('section.operation#postDeepSignal pre.curl');
    assert.match(
      (await deep.textContent())!,
      /curl -s -X POST '[^']+\/api\/agent\/deep-signal'[\s\S]*Authorization: Bearer \$KEY[\s\S]*-d '\{"name":/,
    );
    // On a wide screen the navigation sits beside the reference and stays in view.
    const box = (await nav.boundingBox())!;
    const first = (await page.locator('section.operation').first().boundingBox())!;
    assert.ok(box.x + box.width <= first.x, 'beside');
    await page.context().close();
  });

  test('/docs and the credits page: a Copy button beside each request copies it and says "Copied"; without script the request stays', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url });
    const page = await context.newPage();
    await page.goto(`${svc.url}/docs`);
    const requests = page.locator('section.operation pre.curl');
    const count = await requests.count();
    assert.ok(count > 20, `${count} requests`);
    // One button per request, in the request's own box, right above it.
    assert.equal(await page.locator('section.operation .copy-box:has(pre.curl) button.copy-button').count(), count);
    const deep = page.locator('section.operation#postDeepSignal .copy-box');
    const button = deep.getByRole('button', { name: 'Copy the request: POST /api/agent/deep-signal' });
    assert.equal(await button.count(), 1);
    const [b, pre] = [(await button.boundingBox())!, (await deep.locator('pre').boundingBox())!];
    assert.ok(b.y + b.height <= pre.y + 1 && b.y >= pre.y - 48, 'the button sits on the row above its request');
    assert.ok(b.height >= 24 && b.width >= 24, `${b.width}×${b.height} px`);
    // Keyboard: the button is in the tab order, and Enter copies the request.
    const tabIndex = await button.evaluate((el: any) => el.tabIndex);
    assert.equal(tabIndex, 0);
    await button.focus();
    await page.keyboard.press('Enter');
    // The button says it for a moment, and one status line says it to a screen reader.
    await page.waitForFunction(() => {
      const box = document.querySelector('section.operation#postDeepSignal .copy-box');
      return box.querySelector('button span').textContent === 'Copied';
    });
    await page.waitForFunction(() => document.querySelector('.copy-box [role="status"]')?.textContent === 'Copied');
    assert.equal(await page.locator('[role="status"]').count(), 1, 'one status line');
    const copied = (await page.evaluate(() => window.navigator.clipboard.readText())) as string;
    assert.equal(copied, await deep.locator('pre').textContent());
    assert.match(copied, /^curl -s -X POST '[^']+\/api\/agent\/deep-signal'/);
    // The button takes no room of its own: the requests are where they are without script.
    const top = (p: Page) =>
      p
        .locator('section.operation pre.curl')
        .nth(5)
        .evaluate((el: any) => el.getBoundingClientRect().top + window.scrollY);
    const withScript = await top(page);
    await page.goto(`${svc.url}/agents/credits`);
    assert.equal(await page.locator('main .copy-box pre').count(), 2);
    assert.equal(await page.getByRole('button', { name: /^Copy the (x402|Solana) requests$/ }).count(), 2);
    await context.close();
    const plain = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const noScript = await plain.newPage();
    await noScript.goto(`${svc.url}/docs`);
    assert.equal(await noScript.locator('button.copy-button').count(), 0, 'no button that cannot work');
    assert.equal(await noScript.locator('section.operation pre.curl').count(), count);
    assert.match((await noScript.locator('section.operation pre.curl').first().textContent())!, /^curl /);
    assert.equal(await top(noScript), withScript);
    await plain.close();
    // Within the page-weight budget: the script is small.
    const script = await svc.get(readSiteAssets().copyScript);
    assert.ok((await script.text()).length < 4096);
  });

  test("a startup's page states its company facts above the chart: organisation, website, sector, the repositories carrying the work, what the label rests on", async () => {
    const s = (signals.trending as Json[])[0]!;
    const login = loginOf(s);
    const page = await newPage(DESKTOP);
    await page.goto(`${svc.url}/startups/${login}`);
    const facts = page.locator('h2#company + dl.facts');
    assert.deepEqual(
      (await facts.locator('dt').allTextContents()).map((t) => t.trim()),
      ['GitHub organisation', 'Website', 'LinkedIn', 'Sector', 'What the label rests on'],
    );
    const y = (sel: string) => page.locator(sel).evaluate((el: any) => el.getBoundingClientRect().top);
    assert.ok((await y('h2#company')) < (await y('h2#history')), 'the facts come before the chart');
    const dd = (i: number) => facts.locator('dd').nth(i).textContent();
    assert.match((await dd(0))!, new RegExp(`github\\.example/${login} \\(demo address, not a live site\\)`, 'i'));
    assert.match((await dd(1))!, /\.example.*\(demo address, not a live site\)/);
    // A demo address is never a link; the sector is.
    assert.equal(await page.locator('main a[href*=".example"]').count(), 0);
    assert.equal(await facts.locator('dd a[href^="/sectors/"]').count(), 1);
    // The repositories carrying the work: a table of this week, most commits first, figures as the tables print them.
    const repos = page.locator('table.repos');
    assert.match((await repos.locator('caption').textContent())!, /Repositories carrying the work, Week \d+, \d{4}/);
    const rows = (await repos
      .locator('tbody tr')
      .evaluateAll((all: any[]) =>
        all.map((tr) => [...tr.children].map((c: any) => c.textContent.trim())),
      )) as string[][];
    assert.ok(rows.length >= 1);
    for (const [, now, before] of rows) assert.match(`${now} ${before}`, /^\d{1,3}(,\d{3})* \d{1,3}(,\d{3})*$/);
    const commits = rows.map((r) => Number(r[1]!.replace(/,/g, '')));
    assert.deepEqual(
      commits,
      [...commits].sort((a, b) => b - a),
    );
    // What the label rests on: people by public login only (never a name or an address), releases, repositories.
    await facts.getByRole('link', { name: /the people, releases and repositories behind it/ }).click();
    assert.match(page.url(), /#evidence-details$/);
    const details = (await page.locator('#evidence-details').textContent())!;
    assert.match(details, new RegExp(`${login}-dev\\d+: first commit of the window`));
    assert.match(details, /Releases, tags and deployments in the window/);
    assert.doesNotMatch(details, /@/);
    // A past week's facts are that week's.
    const week = ((await (await svc.get(`/startups/${login}/history.json`)).json()) as Json).weeks.at(-4).period;
    await page.goto(`${svc.url}/startups/${login}?period=${week}`);
    const caption = await page.locator('table.repos caption').textContent();
    const name = (await page.locator('#period option[selected]').textContent())!.trim();
    if (caption) assert.ok(name.startsWith(caption.trim().replace(/^Repositories carrying the work, /, '')), name);
    await page.context().close();
  });

  test("the compare picker completes a tracked startup's name as one types, with the browser's own suggestions", async () => {
    const names = new Set<string>();
    for (const sector of signals.sectors as Json[]) for (const x of sector.startups as Json[]) names.add(x.name);
    const [a, b] = (signals.trending as Json[]).map(loginOf);
    for (const path of ['/compare', `/compare/${a}-vs-${b}`]) {
      const page = await newPage(PHONE);
      await page.goto(`${svc.url}${path}`);
      for (const id of ['compare-a', 'compare-b']) {
        const suggestions = (await page
          .locator(`#${id}`)
          .evaluate((input: any) => (input.list ? [...input.list.options].map((o: any) => o.value) : []))) as string[];
        assert.ok(suggestions.length >= names.size, `${path} #${id}: ${suggestions.length} suggestions`);
        for (const name of names) assert.ok(suggestions.includes(name), `${path} #${id} suggests ${name}`);
        assert.deepEqual(
          suggestions,
          [...suggestions].sort((x, y) => x.localeCompare(y, 'en')),
          'in name order',
        );
      }
      await page.context().close();
    }
  });

  test("on a 360 px phone the startups' filters leave the first ranking row on the first screen; archive and dossier dates stay on one line", async () => {
    const page = await newPage(PHONE);
    // After a first visit, which shows the synthetic-data notice in full.
    await page.goto(`${svc.url}/faq`);
    await page.goto(`${svc.url}/startups`);
    const first = (await page.locator('main table tbody tr').first().boundingBox())!;
    assert.ok(first.y + 40 <= PHONE.height, `first ranking row at y = ${first.y}`);
    // A date never breaks at its hyphens; an archive row is a line or two, not a column of repeated text.
    const lines = (sel: string) =>
      page.locator(sel).evaluateAll((cells: any[]) =>
        cells.map((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size;
        }),
      ) as Promise<number[]>;
    await page.goto(`${svc.url}/periods`);
    const dates = await lines('main table tbody td:nth-child(2)');
    assert.ok(dates.length > 10);
    assert.deepEqual([...new Set(dates)], [1], 'archive dates on one line');
    const heights = (await page
      .locator('main table tbody tr')
      .evaluateAll((rows: any[]) => rows.map((r) => r.getBoundingClientRect().height))) as number[];
    assert.ok(Math.max(...heights) <= 60, `archive rows up to ${Math.max(...heights)} px`);
    assert.match((await page.locator('main').textContent())!, /Every week is of the same dataset: /);
    await page.context().close();
    const desktop = await newPage(DESKTOP);
    await desktop.goto(`${svc.url}/diligence/GitHub`);
    const announced = await desktop.locator('main table tbody td[data-label="Announced"]').evaluateAll((cells: any[]) =>
      cells.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size;
      }),
    );
    assert.ok(announced.length >= 2);
    assert.deepEqual([...new Set(announced)], [1], 'dossier dates on one line');
    await desktop.context().close();
  });
});
