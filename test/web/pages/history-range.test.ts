import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

/** `?range=` of the startup and sector pages, through the routes (in-process, the demo's 30 weeks). */
describe('the history chart range of a page', () => {
  let app: TestApp;
  let login: string;
  const page = (path: string) => app.get(path, { headers: { accept: 'text/html' } });
  /** The points of the wide drawing's first series. */
  const points = (body: string) =>
    body
      .slice(body.indexOf('chart-wide'), body.indexOf('chart-narrow'))
      .match(/<g class="series series-a"[\s\S]*?<\/g/)![0]
      .match(/<circle /g)!.length;

  before(async () => {
    app = await startTestApp();
    const signals = (await (await app.get('/api/signals.json')).json()) as Json;
    login = new URL(signals.trending[0].githubUrl).pathname.split('/')[1]!.toLowerCase();
  });
  after(() => app.close());

  test('each range draws its weeks on the startup and the sector page; no range draws every week', async () => {
    for (const path of [`/startups/${login}`, '/sectors/robotics']) {
      assert.equal(points(await (await page(path)).text()), 30, path);
      assert.equal(points(await (await page(`${path}?range=13`)).text()), 13, path);
      assert.equal(points(await (await page(`${path}?range=26`)).text()), 26, path);
      assert.equal(points(await (await page(`${path}?range=all`)).text()), 30, path);
      // Rendered once per range: the default is not served the range's page from the cache, nor the other way.
      assert.equal(points(await (await page(path)).text()), 30, path);
    }
  });

  test('the compare chart draws the weeks of its range, with range links to the same comparison', async () => {
    const signals = (await (await app.get('/api/signals.json')).json()) as Json;
    const other = new URL(signals.trending[1].githubUrl).pathname.split('/')[1]!.toLowerCase();
    const path = `/compare/${login}-vs-${other}`;
    assert.equal(points(await (await page(path)).text()), 30);
    const body = await (await page(`${path}?range=13`)).text();
    assert.equal(points(body), 13);
    assert.match(body, new RegExp(`href="${path}\\?range=26#history"`));
    assert.equal(points(await (await page(path)).text()), 30);
  });

  test('a malformed range on a comparison is a 400 problem, never a 5xx', async () => {
    const res = await page(`/compare/${login}-vs-robotics?range=${'9'.repeat(21)}`);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  });

  test('a range that is not offered is the default; a malformed one is a 400 problem, never a 5xx', async () => {
    const path = `/startups/${login}`;
    for (const range of ['12', 'ALL', '', '%3Cscript%3E']) {
      const res = await page(`${path}?range=${range}`);
      assert.equal(res.status, 200, range);
      assert.equal(points(await res.text()), 30, range);
    }
    for (const query of [`range=${'9'.repeat(21)}`, 'range=13&range=26']) {
      const res = await page(`${path}?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.match(((await res.json()) as Json).detail, /querystring\.range/);
    }
  });

  test("a range's page names the page without it as canonical, and the week picker keeps the range", async () => {
    const body = await (await page(`/sectors/robotics?range=13`)).text();
    assert.match(body, /<link rel="canonical" href="[^"]*\/sectors\/robotics"/);
    assert.match(
      body,
      /<form class="filters" method="get" action="\/sectors\/robotics" data-autosubmit>\s*<input type="hidden" name="range" value="13" \/>/,
    );
    assert.doesNotMatch(await (await page('/sectors/robotics')).text(), /name="range"/);
  });

  test('the week tables print their figures grouped, and every read-out value is one of them', async () => {
    for (const [path, box] of [
      [`/startups/${login}`, 'history-chart-box'],
      ['/sectors/robotics', 'sector-chart-box'],
    ] as const) {
      const body = await (await page(path)).text();
      const table = body.slice(body.indexOf(`id="${box}"`));
      const cells = [...table.matchAll(/<td class="num">([^<]+)<\/td>/g)].map((m) => m[1]!.trim());
      assert.ok(cells.length >= 60, path);
      for (const c of cells) assert.doesNotMatch(c, /^\d{4,}$/, path);
      const values = [...table.matchAll(/data-v="([^"]+)"/g)].map((m) => m[1]!);
      assert.equal(values.length, 4 * 30, path);
      for (const v of values) assert.ok(cells.includes(v), `${path}: ${v}`);
    }
  });
});
