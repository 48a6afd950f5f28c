import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../helpers/service.js';

type Json = Record<string, any>;

const PAGES = [
  '/',
  '/sectors',
  '/sectors/robotics',
  '/periods',
  '/faq',
  '/blog',
  '/research',
  '/glossary',
  '/methodology',
  '/changelog',
  '/pricing',
  '/markets',
  '/docs',
  '/search?q=robotics',
];

describe('website', () => {
  let svc: TestService;
  let signals: Json;
  let periods: string[];
  const page = (path: string, init?: RequestInit) =>
    svc.get(path, { ...init, headers: { accept: 'text/html', ...(init?.headers ?? {}) } });

  before(async () => {
    svc = await startTestService();
    signals = (await (await svc.get('/api/signals.json')).json()) as Json;
    const changelog = (await (await svc.get('/api/changelog.json')).json()) as Json;
    periods = (changelog.periods as Json[]).map((p) => p.slug as string);
  });
  after(() => svc.close());

  const login = () => new URL(signals.trending[0].githubUrl).pathname.split('/')[1]!.toLowerCase();

  test('every top-level page answers 200 HTML with a canonical link, OpenGraph tags and a strict CSP', async () => {
    for (const path of PAGES) {
      const res = await page(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.doesNotMatch(csp, /unsafe-inline'[^;]*script|script-src[^;]*unsafe/, path);
      const body = await res.text();
      const canonical = body.match(/<link rel="canonical" href="([^"]+)"\s*\/?>/)?.[1];
      assert.equal(canonical, `${svc.url}${path.replace(/&/g, '&#38;')}`, path);
      assert.match(body, /<meta property="og:title" content="[^"]+"\s*\/?>/, path);
      assert.match(body, /<main id="main"/, path);
      assert.doesNotMatch(
        body,
        /https?:\/\/(?!127\.0\.0\.1)[^"'\s]+\.(css|js|woff2)/,
        `${path} loads nothing from another origin`,
      );
    }
  });

  test('pages that show data say the demo dataset is synthetic', async () => {
    for (const path of ['/', '/sectors/robotics', '/periods', '/search?q=robotics']) {
      assert.match(await (await page(path)).text(), /Synthetic demo data\./, path);
    }
  });

  test('the home page lists the trending 20 with their movement since the previous week', async () => {
    const body = await (await page('/')).text();
    for (const s of signals.trending) assert.ok(body.includes(s.name.replace(/&/g, '&#38;')), s.name);
    assert.match(body, /Since last week/);
    assert.match(body, /▲ \d+|▼ \d+|new|=/);
  });

  test('a startup page charts one point per stored period it appears in', async () => {
    const body = await (await page(`/startups/${login()}`)).text();
    const points = body.match(/<g class="series series-a"[\s\S]*?<\/g/)?.[0].match(/<circle class="point"/g)?.length;
    assert.equal(points, periods.length);
    assert.match(body, /"@type":"Organization"/);
    assert.match(body, new RegExp(`href="/api/signal\\?company=`));
  });

  test('a startup page shows the evidence behind its signal type and comparables with their reasons', async () => {
    const body = await (await page(`/startups/${login()}`)).text();
    assert.match(
      body,
      /<h2 id="evidence">Why (Engineering hiring burst|Infrastructure buildout|Deploy frequency spike|Framework migration)<\/h2>/,
    );
    const comparables = body.slice(body.indexOf('id="comparables"'), body.indexOf('id="links"'));
    assert.equal(comparables.match(/<li>/g)?.length, 3);
    assert.match(comparables, /sector scores|Shares|Different signal type/);
  });

  test('the Scout Score form redirects to the receipts page; an invalid username is a 400 page, never sent on', async () => {
    const redirect = await page('/scout?username=octocat', { redirect: 'manual' });
    assert.equal(redirect.status, 303);
    assert.equal(redirect.headers.get('location'), '/scout/octocat');
    const bad = await page(`/scout/${encodeURIComponent('<script>-x')}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('content-type'), 'text/html; charset=utf-8');
    const body = await bad.text();
    assert.match(body, /Not a GitHub username/);
    assert.doesNotMatch(body, /<script>-x/);
  });

  test('a sector page keeps the ranking order in the HTML and marks its table sortable', async () => {
    const body = await (await page('/sectors/robotics')).text();
    const ranks = [...body.matchAll(/<td class="num" data-value="(\d+)">\d+<\/td>\s*<td><a href="\/startups/g)].map(
      (m) => Number(m[1]),
    );
    assert.ok(ranks.length > 1);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    assert.match(body, /<table data-sortable>/);
    assert.match(body, /<script src="\/assets\/sort\.js\?v=[0-9a-f]+" defer><\/script>/);
  });

  test('every period has an archive page and an unknown one is a 404 page', async () => {
    assert.equal((await page(`/periods/${periods[0]}`)).status, 200);
    assert.equal((await page('/periods/1999-w01')).status, 404);
  });

  test('compare pages resolve both startups and refuse unknown pairs', async () => {
    const [a, b] = signals.sectors[0].startups;
    const la = new URL(a.githubUrl).pathname.split('/')[1]!.toLowerCase();
    const lb = new URL(b.githubUrl).pathname.split('/')[1]!.toLowerCase();
    const res = await page(`/compare/${la}-vs-${lb}`);
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.ok(body.includes(`<h1>${a.name} vs ${b.name}</h1>`));
    assert.equal((await page(`/compare/${la}-vs-nobody-here`)).status, 404);
  });

  test("an answer's canonical URL from /api/answer is a page with its facts", async () => {
    const hit = (await (await svc.get('/api/answer?q=which%20startups%20are%20trending')).json()) as Json;
    const res = await page(new URL(hit.url).pathname);
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.ok(body.includes('Facts and sources'));
    assert.match(body, /"@type":"QAPage"/);
  });

  test('pages carry a strong ETag and answer 304 to a matching If-None-Match', async () => {
    const first = await page('/sectors/robotics');
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await page('/sectors/robotics', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('pages, their 304 and the 404 page carry the CORS and security headers of every response', async () => {
    const first = await page(`/startups/${login()}`);
    const responses = [
      await page('/'),
      first,
      await page(`/startups/${login()}`, { headers: { 'if-none-match': first.headers.get('etag')! } }),
      await page('/startups/no-such-startup-anywhere'),
    ];
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 200, 304, 404],
    );
    for (const res of responses) {
      assert.equal(res.headers.get('access-control-allow-origin'), '*', `${res.status}`);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${res.status}`);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', `${res.status}`);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', `${res.status}`);
      assert.match(res.headers.get('content-security-policy')!, /script-src 'self'/, `${res.status}`);
    }
  });

  test('HEAD works wherever GET does', async () => {
    const res = await page('/methodology', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  test('an unknown page answers a 404 HTML page that suggests where to go; API paths keep problem+json', async () => {
    const res = await page('/no/such/page');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const body = await res.text();
    assert.match(body, /Page not found/);
    assert.match(body, /href="\/search"/);
    const api = await page('/api/no-such-thing');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type')!, /^application\/problem\+json/);
    const missing = await page('/startups/no-such-startup-anywhere');
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Page not found/);
  });

  test('hostile text in a search or a path is escaped, never reflected as markup', async () => {
    const evil = '<script>alert(1)</script>"><img src=x onerror=alert(1)>';
    for (const path of [
      `/search?q=${encodeURIComponent(evil)}`,
      `/startups/${encodeURIComponent(evil)}`,
      `/x${encodeURIComponent(evil)}`,
    ]) {
      const res = await page(path);
      assert.ok(res.status === 200 || res.status === 404, `${path} → ${res.status}`);
      const body = await res.text();
      assert.doesNotMatch(body, /<script>alert|<img src=x/, path);
    }
  });

  test('a page path parameter of up to 200 characters is looked up (404 page when unknown), a longer one is a 414', async () => {
    for (const route of ['startups', 'sectors', 'compare', 'periods', 'answers', 'blog', 'research']) {
      // Lengths count once decoded: 200 encoded characters (600 in the URL) are still looked up.
      for (const param of ['a'.repeat(200), '%61'.repeat(200)]) {
        const res = await page(`/${route}/${param}`);
        assert.equal(res.status, 404, `/${route}/${param.slice(0, 9)}… (${param.length} characters in the URL)`);
        assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.match(await res.text(), /Page not found/);
      }
      for (const param of ['a'.repeat(201), '%61'.repeat(201)]) {
        const res = await page(`/${route}/${param}`);
        assert.equal(res.status, 414, `/${route}/${param.slice(0, 9)}… (${param.length} characters in the URL)`);
        assert.match(res.headers.get('content-type')!, /^application\/problem\+json/);
        assert.equal(((await res.json()) as Json).detail, 'A path segment is too long.');
      }
    }
  });

  test('a search longer than 280 characters is a 400, not a 5xx', async () => {
    const res = await page(`/search?q=${'a'.repeat(281)}`);
    assert.equal(res.status, 400);
  });

  test('static assets are served from this origin with long-lived caching for versioned URLs', async () => {
    const body = await (await page('/')).text();
    const css = body.match(/href="(\/assets\/site\.css\?v=[0-9a-f]+)"/)![1]!;
    const res = await svc.get(css);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.match(res.headers.get('cache-control')!, /immutable/);
    const font = await svc.get('/assets/fonts/inter-latin-wght-normal.woff2');
    assert.equal(font.status, 200);
    assert.equal(font.headers.get('content-type'), 'font/woff2');
  });

  test('the API reference loads its viewer from this origin and reads our OpenAPI document', async () => {
    const body = await (await page('/docs')).text();
    const bundle = body.match(/<script src="(\/assets\/swagger-ui\/swagger-ui-bundle\.js\?v=[0-9a-f]+)"/)![1]!;
    assert.equal((await svc.get(bundle)).status, 200);
    const init = await (await svc.get(body.match(/<script src="(\/assets\/docs-init\.js\?v=[0-9a-f]+)"/)![1]!)).text();
    assert.match(init, /url: '\/api\/openapi\.json'/);
  });
});
