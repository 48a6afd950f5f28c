import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

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
  '/startups',
  '/compare',
  '/ask',
  '/ask?q=which%20startups%20are%20trending',
  '/diligence/GitHub',
];

describe('website', () => {
  let svc: TestApp;
  let signals: Json;
  let periods: string[];
  const page = (path: string, init?: RequestInit) =>
    svc.get(path, { ...init, headers: { accept: 'text/html', ...(init?.headers ?? {}) } });

  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod });
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
      // A page per typed query names the page it duplicates (the search page, an answer's page) instead of itself.
      const own = path.startsWith('/search?') ? '/search' : path.startsWith('/ask?') ? undefined : path;
      if (own === undefined) assert.match(canonical ?? '', /\/(answers\/[^"]+|ask)$/, path);
      else assert.equal(canonical, `${svc.url}${own.replace(/&/g, '&#38;')}`, path);
      assert.match(body, /<meta property="og:title" content="[^"]+"\s*\/?>/, path);
      assert.match(body, /<main id="main"/, path);
      assert.doesNotMatch(
        body,
        // A stylesheet, script or font address (its extension ends it: an example's ".json" URL is no script).
        new RegExp(
          `https?://(?!${new URL(svc.url).host.replace(/\./g, '\\.')}/)[^"'\\s]+\\.(css|js|woff2)(?=[?#"'\\s<]|$)`,
        ),
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

  test('a startup page says how its stage is known: "(estimated)" for an estimate, "(per the watchlist)" otherwise', async () => {
    const lines = (await (await svc.get('/api/dataset.jsonl')).text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Json)
      .filter((r) => r.period === signals.meta.period.slug);
    for (const [source, words] of [
      ['estimated', 'estimated'],
      ['watchlist', 'per the watchlist'],
    ] as const) {
      const record = lines.find((r) => r.stageSource === source)!;
      const body = await (await page(`/startups/${record.org.toLowerCase()}`)).text();
      assert.ok(body.includes(`${record.stage} (${words})`), `${record.org}: ${record.stage} (${words})`);
    }
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
    const ranks = [
      ...body.matchAll(/<td class="num rank" data-value="(\d+)">\d+<\/td>\s*<td class="lead"><a href="\/startups/g),
    ].map((m) => Number(m[1]));
    assert.ok(ranks.length > 1);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    assert.match(body, /<table data-sortable class="stack ranking">/);
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

  test('hostile text in a search (200) or a path (404) is escaped, never reflected as markup', async () => {
    const evil = '<script>alert(1)</script>"><img src=x onerror=alert(1)>';
    for (const [path, status] of [
      [`/search?q=${encodeURIComponent(evil)}`, 200],
      [`/startups/${encodeURIComponent(evil)}`, 404],
      [`/x${encodeURIComponent(evil)}`, 404],
    ] as const) {
      const res = await page(path);
      assert.equal(res.status, status, path);
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

  test('caching headers per content type: pages, searches, downloads, versioned and bare assets, the font', async () => {
    const home = await page('/');
    assert.equal(home.headers.get('cache-control'), 'public, max-age=300, s-maxage=3600');
    const body = await home.text();
    assert.equal((await page('/search?q=robotics')).headers.get('cache-control'), 'public, max-age=60');
    assert.equal((await page('/ask?q=robotics')).headers.get('cache-control'), 'public, max-age=60');
    const csv = await page('/sectors/robotics/ranking.csv');
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(csv.headers.get('cache-control'), 'public, max-age=300, s-maxage=3600');
    assert.ok(csv.headers.get('etag'));

    const css = body.match(/href="(\/assets\/site\.css\?v=[0-9a-f]+)"/)![1]!;
    const font = body.match(
      /<link rel="preload" href="(\/assets\/fonts\/inter-latin-wght-normal\.woff2\?v=[0-9a-f]+)"/,
    )![1]!;
    const sort = body.match(/<script src="(\/assets\/sort\.js\?v=[0-9a-f]+)"/)![1]!;
    const immutable = 'public, max-age=31536000, immutable';
    for (const [url, type] of [
      [css, 'text/css; charset=utf-8'],
      [font, 'font/woff2'],
      [sort, 'text/javascript; charset=utf-8'],
    ] as const) {
      const res = await svc.get(url);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get('content-type'), type, url);
      assert.equal(res.headers.get('cache-control'), immutable, url);
    }
    // The stylesheet names the font by its versioned URL, so the font is cached for a year too.
    assert.ok((await (await svc.get(css)).text()).includes(`url('${font}')`));
    // A bare path, or a hash that is not the current one, may change: kept briefly.
    for (const url of [
      '/assets/site.css',
      '/assets/site.css?v=000000000000',
      '/assets/fonts/inter-latin-wght-normal.woff2',
    ]) {
      assert.equal((await svc.get(url)).headers.get('cache-control'), 'public, max-age=300, s-maxage=3600', url);
    }
  });

  test('the API reference is rendered from the OpenAPI document, with no viewer bundle, and can try a GET', async () => {
    const openapi = (await (await svc.get('/api/openapi.json')).json()) as Json;
    const res = await page('/docs');
    const body = await res.text();
    assert.doesNotMatch(body, /swagger/i);
    // No viewer bundle: the only script is the copy buttons' enhancement.
    assert.deepEqual(
      [...body.matchAll(/<script src="([^"?]+)/g)].map((m) => m[1]),
      ['/assets/copy.js'],
    );
    assert.equal(body.match(/<h1[ >]/g)?.length, 1);
    assert.ok(body.length < 300_000, `${body.length} bytes`);
    for (const [path, item] of Object.entries(openapi.paths as Record<string, Json>)) {
      for (const method of Object.keys(item)) {
        assert.ok(body.includes(`<code>${path.replace(/&/g, '&#38;')}</code>`), `${method} ${path}`);
      }
    }
    assert.match(body, /<form class="filters" method="get" action="\/api\/answer"/);
    assert.equal(res.headers.get('content-security-policy'), (await page('/')).headers.get('content-security-policy'));
  });

  test('the ask page answers with the same service as /api/answer, with its sources and other answers', async () => {
    const q = 'which startups are trending';
    const hit = (await (await svc.get(`/api/answer?q=${encodeURIComponent(q)}`)).json()) as Json;
    const res = await page(`/ask?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.ok(body.includes(`<h2 id="answer-h">${hit.question}</h2>`));
    // The answer's lead, then its startups as a table, then each fact with its source page named.
    assert.ok(body.includes(hit.answer.replace(/&/g, '&#38;').split(': 1.')[0].slice(0, 80)));
    assert.match(body, /<h3 id="answer-sources">Facts and sources<\/h3>/);
    assert.equal(body.match(/<span class="source">Source: <a href="[^"]+">/g)?.length, hit.facts.length);
    // The question stays in the box; the miss says so and offers the nearest questions and a search.
    assert.match(body, /id="ask-q"[^>]*value="which startups are trending"/);
    const miss = await (await page('/ask?q=zzqx%20blorf')).text();
    assert.match(miss, /No answer matches this question closely enough/);
    assert.match(miss, /href="\/search\?q=zzqx%20blorf"/);
  });

  test("the ask box gives the answer service's reason for a question it does not answer, as /api/answer does", async () => {
    const q = 'Which startup is the best investment?';
    const api = (await (await svc.get(`/api/answer?q=${encodeURIComponent(q)}`)).json()) as Json;
    assert.equal(api.reason, 'out-of-scope');
    const body = await (await page(`/ask?q=${encodeURIComponent(q)}`)).text();
    assert.match(body, /gives no investment advice/);
    assert.doesNotMatch(body, /No answer matches this question closely enough/);
  });

  test('a dossier page per entity: its sections, the canonical name, a 404 with candidates', async () => {
    const json = (await (await svc.get('/api/diligence.json?company=GitHub')).json()) as Json;
    const body = await (await page('/diligence/GitHub')).text();
    for (const id of ['acquired-by', 'acquisitions', 'backers', 'signal', 'sources'])
      assert.match(body, new RegExp(`<h2 id="${id}">`));
    assert.ok(body.includes(json.dossier.acquiredBy[0].acquirer));
    assert.ok(body.includes(json.dossier.acquiredBy[0].sources[0].url));
    const alias = await page('/diligence/github', { redirect: 'manual' });
    assert.equal(alias.status, 301);
    assert.equal(alias.headers.get('location'), '/diligence/GitHub');
    const miss = await page('/diligence/Nosuchcompanyzz');
    assert.equal(miss.status, 404);
    assert.match(await miss.text(), /No dossier for/);
    // Answers and startup pages link to the dossier page, not to the JSON.
    const answer = await (await page('/ask?q=who%20acquired%20github')).text();
    assert.match(answer, /href="\/diligence\/GitHub"/);
    // A fictional startup has nothing documented: its page links no empty dossier.
    assert.doesNotMatch(await (await page(`/startups/${login()}`)).text(), /href="\/diligence\/[^"]+">the dossier of/);
    assert.match(await (await page('/search?q=github')).text(), /href="\/diligence\/GitHub">the dossier of GitHub/);
  });

  test('search names a dossier only for an exact name: a real company one letter from a held one gets none', async () => {
    for (const near of ['Linde', 'Okra', 'Replica', 'Humi']) {
      const text = await (await page(`/search?q=${near}`)).text();
      assert.doesNotMatch(text, /the dossier of/, near);
    }
    assert.match(await (await page('/search?q=Linode')).text(), /the dossier of Linode/);
  });

  test("a typed question's page names its answer's page as canonical, a search's page the search page", async () => {
    const asked = await (await page('/ask?q=who%20acquired%20github')).text();
    assert.doesNotMatch(asked, /name="robots"/);
    const canonical = /<link rel="canonical" href="[^"]*(\/answers\/[^"]+)"/.exec(asked);
    assert.ok(canonical, 'the canonical is an answer page');
    assert.equal((await page(canonical[1]!)).status, 200);
    const searched = await (await page('/search?q=robotics&page=2')).text();
    assert.doesNotMatch(searched, /name="robots"/);
    assert.match(searched, /<link rel="canonical" href="[^"]*\/search"/);
  });

  test('search pages through its results and keeps the query in both boxes', async () => {
    const first = await (await page('/search?q=startup')).text();
    const second = await (await page('/search?q=startup&page=2')).text();
    const links = (b: string) => [...b.matchAll(/<li>\s*<a href="([^"]+)">/g)].map((m) => m[1]);
    assert.ok(links(first).length > 0 && links(second).length > 0);
    assert.notDeepEqual(links(first), links(second));
    assert.match(first, /href="\/search\?q=startup&#38;page=2" rel="next"/);
    assert.match(second, /<ol class="results" start="21">/);
    assert.match(second, /id="site-search"[^>]*value="startup"/);
    assert.match(second, /id="q"[^>]*value="startup"/);
  });

  test('all startups: filters from fixed lists, pages of 50, an unknown value ignored', async () => {
    const all = await (await page('/startups')).text();
    assert.equal(all.match(/<td class="lead">/g)?.length, 50);
    const seed = await (await page('/startups?stage=Seed')).text();
    const stages = [...seed.matchAll(/<td data-label="Stage" class="nowrap">([^<]+)<\/td>/g)].map((m) => m[1]);
    assert.ok(stages.length > 0 && stages.every((s) => s === 'Seed'));
    assert.match(seed, /<option value="Seed"\s+selected>/);
    const unknown = await page('/startups?stage=%3Cb%3E');
    assert.equal(unknown.status, 200);
    assert.doesNotMatch(await unknown.text(), /<b>/);
    assert.equal((await page('/startups?page=999')).status, 404);
  });

  test('downloads of a sector ranking and of a startup history', async () => {
    const csv = await (await page('/sectors/robotics/ranking.csv')).text();
    assert.match(csv, /^period,sector,sectorRank/);
    assert.equal(
      csv.trim().split('\r\n').length - 1,
      signals.sectors.find((x: Json) => x.slug === 'robotics').startups.length,
    );
    const json = (await (await page('/sectors/robotics/ranking.json')).json()) as Json;
    assert.equal(json.sector.slug, 'robotics');
    const history = await (await page(`/startups/${login()}/history.csv`)).text();
    assert.equal(history.trim().split('\r\n').length - 1, periods.length);
    const weeks = (await (await page(`/startups/${login()}/history.json`)).json()) as Json;
    assert.equal(weeks.weeks.length, periods.length);
    assert.equal((await page('/sectors/nope/ranking.csv')).status, 404);
  });

  test('a startup page at a past week shows that week; an unknown week is a 404', async () => {
    const oldest = [...periods].sort()[0]!;
    const res = await page(`/startups/${login()}?period=${oldest}`);
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.match(body, /Figures of /);
    assert.match(body, /<meta name="robots" content="noindex"/);
    assert.equal((await page(`/startups/${login()}?period=1999-w01`)).status, 404);
  });

  test("a sector page at a past week shows that week's stored ranking of the sector; an unknown week is a 404", async () => {
    const oldest = [...periods].sort()[0]!;
    const weeks = (await (await page(`/startups/${login()}/history.json`)).json()) as Json;
    const then = (weeks.weeks as Json[]).find((w) => w.period === oldest)!;
    const res = await page(`/sectors/${then.sector}?period=${oldest}`);
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.match(body, /The ranking of .* as published that week/);
    assert.match(body, /<meta name="robots" content="noindex"/);
    assert.match(body, new RegExp(`<option value="${oldest}"\\s+selected`));
    const row = body.split('<tr>').find((r) => r.includes(`/startups/${login()}?period=${oldest}`))!;
    assert.match(row, new RegExp(`data-value="${then.rankInSector}">${then.rankInSector}</td>`));
    assert.match(row, new RegExp(`data-label="Score" data-value="${then.compositeScore}"`));
    assert.equal((await page(`/sectors/${then.sector}?period=1999-w01`)).status, 404);
    const current = await (await page(`/sectors/${then.sector}?period=${[...periods].sort().at(-1)}`)).text();
    assert.doesNotMatch(current, /as published that week/);
  });

  test("startup and sector pages name their own share image, other pages the site's: a 1200×630 PNG, cached like a download", async () => {
    const ogImage = async (path: string) =>
      (await (await page(path)).text()).match(/<meta property="og:image" content="([^"]+)"/)?.[1];
    const startup = await ogImage(`/startups/${login()}`);
    const sector = await ogImage('/sectors/robotics');
    const site = await ogImage('/faq');
    assert.match(startup!, new RegExp(`^${svc.url}/startups/${login()}/share\\.png\\?v=`));
    assert.match(sector!, new RegExp(`^${svc.url}/sectors/robotics/share\\.png\\?v=`));
    assert.match(site!, new RegExp(`^${svc.url}/share\\.png\\?v=`));
    for (const url of [startup!, sector!, site!]) {
      const res = await svc.get(url.slice(svc.url.length));
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get('content-type'), 'image/png', url);
      assert.ok(res.headers.get('etag'), url);
      const png = Buffer.from(await res.arrayBuffer());
      assert.equal(png.toString('latin1', 1, 4), 'PNG', url);
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], url);
    }
    const body = await (await page(`/startups/${login()}`)).text();
    assert.match(body, /<meta name="twitter:card" content="summary_large_image"/);
    assert.match(body, /<meta property="og:image:alt" content="[^"]+"/);
    assert.equal((await svc.get('/startups/no-such-startup/share.png')).status, 404);
    assert.equal((await svc.get('/sectors/nope/share.png')).status, 404);
  });

  test('the compare picker resolves names to the canonical comparison, and says which name it does not know', async () => {
    const [a, b] = signals.trending;
    const res = await page(`/compare?a=${encodeURIComponent(a.name)}&b=${encodeURIComponent(b.name)}`, {
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^\/compare\/[a-z0-9-]+-vs-[a-z0-9-]+$/);
    const miss = await page(`/compare?a=${encodeURIComponent(a.name)}&b=zzqxnothing`);
    assert.equal(miss.status, 404);
    assert.match(await miss.text(), /No tracked startup is named “zzqxnothing”/);
  });

  test('the compare picker takes no typo in a distinctive word: a name one letter off is offered, not compared', async () => {
    const [a, b] = signals.trending;
    const [first, ...rest] = String(a.name).split(' ');
    const typo = [`${first!.slice(0, -1)}${first!.endsWith('x') ? 'y' : 'x'}`, ...rest].join(' ');
    const res = await page(`/compare?a=${encodeURIComponent(typo)}&b=${encodeURIComponent(b.name)}`, {
      redirect: 'manual',
    });
    assert.equal(res.status, 404);
    const text = await res.text();
    assert.match(text, /No tracked startup is named/);
    assert.match(
      text,
      new RegExp(`did you mean <a href="/compare\\?a=[^"]+">${a.name}</a>`),
      'the startup meant is offered',
    );
  });

  test('copy: prices read as prices, demo hosts are not links, ties are explained, counts agree', async () => {
    const pricing = await (await page('/pricing')).text();
    assert.doesNotMatch(pricing, /per free|Authentication: Authorization/);
    assert.match(pricing, /Why two currencies/);
    const startup = await (await page(`/startups/${login()}`)).text();
    assert.doesNotMatch(startup, /href="https?:\/\/[^"]*\.example[/"]/);
    assert.match(startup, /demo address, not a live site/);
    const ranked = signals.sectors.flatMap((x: Json) => x.startups).length;
    assert.match(startup, new RegExp(`of the ${ranked.toLocaleString('en-US')} tracked startups`));
    const compare = await (
      await page(
        '/compare/' + login() + '-vs-' + new URL(signals.trending[1].githubUrl).pathname.split('/')[1]!.toLowerCase(),
      )
    ).text();
    assert.doesNotMatch(compare, /\. both /);
    const credits = await (await page('/agents/credits')).text();
    assert.match(credits, /The ways below work without a card/);
    const scout = await (await page('/scout')).text();
    assert.match(scout, /href="\/scout\/octocat"/);
    assert.match(scout, /asks GitHub for the user's public stars live/);
  });

  test('the Scout page shows a worked example computed without GitHub, and its look-ups show progress', async () => {
    const scout = await (await page('/scout')).text();
    const example = scout.slice(scout.indexOf('A worked example'));
    assert.match(example, /an early call worth\s+[\d.]+ points/);
    assert.match(example, /too late to count/);
    assert.match(example, /give a Scout Score of <strong>\d+<\/strong>/);
    assert.match(scout, /<form action="\/scout" method="get" data-busy="Asking GitHub/);
    assert.match(scout, /<p id="scout-busy" class="notice" role="status" data-busy-line hidden><\/p>/);
    assert.match(scout, /<script src="\/assets\/busy\.js\?v=[0-9a-f]+" defer><\/script>/);
  });
});
