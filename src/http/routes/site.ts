import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { backtestReport } from '../../core/backtest/report.js';
import { RESEARCH_SLUGS } from '../../core/documents/research.js';
import { NlwebAskParams, SearchType } from '../../schemas/answers.js';
import { derive, rendered, type Rendered, type Snapshot } from '../../snapshot/snapshot.js';
import type { SiteAssets } from '../../web/assets.js';
import { DEFAULT_RANGE, parseRange, type ChartRange } from '../../web/charts.js';
import { pageContext, type PageContext } from '../../web/context.js';
import { layout, type PageInput } from '../../web/layout.js';
import {
  answerPage,
  blogIndexPage,
  blogPostPage,
  changelogPage,
  faqPage,
  glossaryPage,
  marketsPage,
  methodologyPage,
  pricingPage,
  researchIndexPage,
  researchPage,
} from '../../web/pages/content.js';
import {
  compareIndexPage,
  comparePage,
  findComparison,
  homePage,
  isSectorSlug,
  periodPage,
  periodsIndexPage,
  sectorPage,
  sectorsIndexPage,
  startupPage,
} from '../../web/pages/data.js';
import { backtestPage } from '../../web/pages/backtest.js';
import { notFoundPage, SEARCH_MAX_PAGE, SEARCH_QUERY_MAX, searchPage } from '../../web/pages/utility.js';
import { ASK_QUERY_MAX, askPage, dossierPage } from '../../web/pages/ask.js';
import { docsPage, type OpenApiDocument } from '../../web/pages/docs.js';
import {
  historyCsv,
  historyJson,
  normaliseFilters,
  sectorCsv,
  sectorJson,
  startupsPage,
} from '../../web/pages/startups.js';
import { html } from '../../web/html.js';
import { sectorCard, siteCard, startupCard } from '../../web/share-image.js';
import { scoutIndexPage, scoutProblemPage, scoutReceiptsPage } from '../../web/pages/scout.js';
import { PUBLIC_CACHE, renderedSender, sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { resolveStrict } from '../../core/signals/resolve.js';
import type { FastAnswer, FastRead } from '../fast-path.js';
import { commonHeaders } from '../plugins/headers.js';
import { ServiceError } from '../../domain/errors.js';
import { problemResponse } from '../problem.js';
import { nlwebAskResponder } from './nlweb.js';

const HTML = 'text/html; charset=utf-8';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages may load only what this origin serves; JSON-LD blocks are data, not script, so no inline script is needed. */
export const HTML_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** Rendered pages kept per period; the rest are rendered again on demand (10,000 startups would not all fit). */
const PAGE_CACHE_SIZE = 2_000;
/** A path segment the router passes on as it is (no percent-encoding, no delimiter): the fast path's page keys. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.-]+$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyReply = FastifyReply<any, any, any, any, any, any, any, any>;
/** A page, or a data download (CSV or JSON) rendered once per period like a page. */
type Built = PageInput | { download: Rendered };
type Build = (page: PageContext) => Built | undefined | Promise<Built | undefined>;

/** Renders the HTML 404 page: the error handler uses it for browsers asking for a page that does not exist. */
export function htmlNotFound(baseUrl: string, assets: SiteAssets, path: string): string {
  return layout(baseUrl, assets, notFoundPage(path));
}

/**
 * The human website: server-rendered HTML from the in-memory snapshot. Each page is rendered once per period and
 * served with a strong ETag like the API; a page view costs no database query (the history the charts draw is read
 * once per period, see src/store/series.ts).
 *
 * `fast` receives the reads the fast path answers before the framework (fast-path.ts): the home page and the startup
 * pages once this period's render of them is done, with the routes' own prepared headers.
 */
export async function siteRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  assets: SiteAssets,
  fast: FastRead[] = [],
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const baseUrl = ctx.urls.base;
  const { documents } = ctx.services;
  const { posts } = documents;

  /** A page of the period: its render while it runs, then the result (`null`: no such page), kept for the period. */
  interface PageEntry {
    pending: Promise<Rendered | null>;
    done?: { page: Rendered | null };
  }
  const pagesOf = derive(() => new LRUCache<string, PageEntry>({ max: PAGE_CACHE_SIZE }));

  // The pages' headers are fixed per page and period: they are built once per rendered page (renderedSender), and
  // the page routes skip the per-request common-headers hook (`commonHeadersPrepared`), so the 404 adds them itself.
  const common = commonHeaders(ctx.urls.secure);
  type PageSender = ReturnType<typeof renderedSender>;
  const sendHtml = renderedSender({ ...common, 'content-security-policy': HTML_CSP });
  // Downloads of a page's data (a sector's ranking, a startup's weeks): fixed per period like the pages.
  const sendData = renderedSender({
    ...common,
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  });

  const notFound = (request: FastifyRequest, reply: AnyReply) =>
    reply
      .code(404)
      .headers(common)
      .header('content-type', HTML)
      .header('content-security-policy', HTML_CSP)
      .header('cache-control', 'no-store')
      .send(htmlNotFound(baseUrl, assets, request.url.split('?')[0]!));

  async function renderPage(snapshot: Snapshot, build: Build): Promise<Rendered | null> {
    const page = await build(pageContext(snapshot, ctx.urls));
    if (!page) return null;
    if ('download' in page) return page.download;
    // Pages without a share image of their own show the site's card; `?v=` names the period, so a link preview made
    // in an earlier week does not keep that week's card.
    const image = page.image ?? {
      path: `/share.png?v=${snapshot.period.slug}`,
      alt: `Signal Service, ${snapshot.period.name}: ${snapshot.startups.length} startups tracked by engineering acceleration.`,
    };
    return rendered(layout(baseUrl, assets, { ...page, image }), HTML);
  }

  function send(request: FastifyRequest, reply: AnyReply, page: Rendered | null, sender: PageSender) {
    if (!page) return notFound(request, reply);
    sender(request, reply, page);
    return reply;
  }

  async function sendWhenRendered(request: FastifyRequest, reply: AnyReply, entry: PageEntry, sender: PageSender) {
    let page: Rendered | null;
    try {
      page = await entry.pending;
    } catch (err) {
      ctx.log.warn({ reqId: request.id, err }, 'could not render a page');
      throw new ServiceError('page-store-silent', {}, { retryAfterSeconds: 5 });
    }
    return send(request, reply, page, sender);
  }

  /** Sends the page at `key`: at once when this period's render is done, else once it is (a failed render is retried). */
  function serve(request: FastifyRequest, reply: AnyReply, key: string, build: Build, sender = sendHtml) {
    const snapshot = currentSnapshot(ctx);
    const cache = pagesOf(snapshot);
    let entry = cache.get(key);
    if (entry?.done) return send(request, reply, entry.done.page, sender);
    if (!entry) {
      const fresh: PageEntry = { pending: renderPage(snapshot, build) };
      fresh.pending.then(
        (page) => (fresh.done = { page }),
        () => cache.delete(key),
      );
      cache.set(key, fresh);
      entry = fresh;
    }
    return sendWhenRendered(request, reply, entry, sender);
  }

  /** The page at `key` when this period's render of it is done and found a page (the fast path's answer). */
  const renderedPage = (key: string): FastAnswer | undefined => {
    const snapshot = ctx.holder.current;
    const page = snapshot && pagesOf(snapshot).get(key)?.done?.page;
    return page ? { entity: page, representations: sendHtml.representations(page) } : undefined;
  };
  // A page, once rendered, is the same for the whole period (a page the cache lets go is rendered again from the same
  // period, to the same bytes): the fast path remembers it per request target (samePerPeriod).
  fast.push(
    { path: '/', samePerPeriod: true, answer: (_rest, query) => (query === '' ? renderedPage('/') : undefined) },
    {
      path: '/startups/',
      segment: true,
      samePerPeriod: true,
      answer: (login, query) =>
        query === '' && PLAIN_SEGMENT.test(login) ? renderedPage(`/startups/${login.toLowerCase()}`) : undefined,
    },
  );

  const page = { schema: { hide: true }, config: { rateLimit: 'unlimited' as const, commonHeadersPrepared: true } };
  const staticFile = { schema: { hide: true }, config: { rateLimit: 'unlimited' as const } };
  // The pages' path parameters need no schema: the router matches a parameter only when it is at most
  // `maxParamLength` (200) characters once decoded, and a longer one is answered 414 before any handler runs, so a
  // validator would only test that again on every view. Each handler looks the value up in the snapshot (or a fixed
  // list), and what is not there is the 404 page.
  type Param<K extends string> = { Params: Record<K, string> };
  // A download's file name ("zepatra-history.csv", not "history.csv"), on its answers only: a 404 stays a page. The
  // names are built from a login or slug the snapshot holds, so they need no quoting.
  const namedDownload = (file: (request: FastifyRequest) => string) => ({
    ...page,
    onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: null, p: unknown) => void) => {
      if (reply.statusCode === 200 || reply.statusCode === 304)
        reply.header('content-disposition', `attachment; filename="${file(request)}"`);
      done(null, payload);
    },
  });

  r.get('/', page, (q, s) => serve(q, s, '/', homePage));
  r.get('/sectors', page, (q, s) => serve(q, s, '/sectors', sectorsIndexPage));
  // Share images (og:image): PNG cards rendered once per period like the pages (src/web/share-image.ts).
  const png = (body: Buffer) => ({ download: rendered(body, 'image/png') });
  r.get('/share.png', page, (q, s) => serve(q, s, '/share.png', async (c) => png(await siteCard(c)), sendData));
  r.get<Param<'slug'>>('/sectors/:slug/share.png', page, (q, s) => {
    const { slug } = q.params;
    if (!isSectorSlug(slug)) return notFound(q, s);
    return serve(q, s, `/sectors/${slug}/share.png`, async (c) => png(await sectorCard(c, slug)), sendData);
  });
  r.get<Param<'login'>>('/startups/:login/share.png', page, (q, s) => {
    const login = q.params.login.toLowerCase();
    return serve(
      q,
      s,
      `/startups/${login}/share.png`,
      async (c) => {
        const startup = c.snapshot.byLogin.get(login);
        return startup ? png(await startupCard(c, startup)) : undefined;
      },
      sendData,
    );
  });
  // A history page's week (`period`, looked up by the page: a week not stored is its 404) and chart range (`range`,
  // checked against the fixed list, anything else is the default), both part of the page's cache key.
  const historyQuery = z.object({ period: z.string().max(20).optional(), range: z.string().max(20).optional() });
  const historyKey = (path: string, period: string | undefined, range: ChartRange) =>
    `${path}${period ? `?period=${period}` : ''}${range === DEFAULT_RANGE ? '' : `${period ? '&' : '?'}range=${range}`}`;
  r.get('/sectors/:slug', { ...page, schema: { hide: true, querystring: historyQuery } }, (q, s) => {
    const { slug: sector } = q.params as { slug: string };
    const period = q.query.period || undefined;
    const range = parseRange(q.query.range);
    if (!isSectorSlug(sector)) return notFound(q, s);
    return serve(q, s, historyKey(`/sectors/${sector}`, period, range), (c) => sectorPage(c, sector, period, range));
  });
  const rankingFile = (q: FastifyRequest) =>
    `${(q.params as { slug: string }).slug}-ranking-${ctx.holder.current?.period.slug ?? 'current'}.csv`;
  r.get<Param<'slug'>>('/sectors/:slug/ranking.csv', namedDownload(rankingFile), (q, s) => {
    const { slug } = q.params;
    if (!isSectorSlug(slug)) return notFound(q, s);
    return serve(
      q,
      s,
      `/sectors/${slug}/ranking.csv`,
      (c) => ({ download: rendered(sectorCsv(c, slug), 'text/csv; charset=utf-8') }),
      sendData,
    );
  });
  r.get<Param<'slug'>>('/sectors/:slug/ranking.json', page, (q, s) => {
    const { slug } = q.params;
    if (!isSectorSlug(slug)) return notFound(q, s);
    return serve(
      q,
      s,
      `/sectors/${slug}/ranking.json`,
      (c) => ({ download: rendered(sectorJson(c, slug), 'application/json; charset=utf-8') }),
      sendData,
    );
  });
  // Every tracked startup, filtered; the filters are checked against fixed lists, so the pages are finite and cached.
  r.get(
    '/startups',
    {
      ...page,
      schema: {
        hide: true,
        querystring: z.object({
          sector: z.string().max(40).optional(),
          stage: z.string().max(40).optional(),
          signal: z.string().max(60).optional(),
          country: z.string().max(80).optional(),
          page: z.coerce.number().int().min(1).max(10_000).optional(),
        }),
      },
    },
    (q, s) => {
      const filters = normaliseFilters(pageContext(currentSnapshot(ctx), ctx.urls), q.query);
      const key = `/startups?${filters.sector}|${filters.stage}|${filters.signal}|${filters.country}|${filters.page}`;
      return serve(q, s, key, (c) => startupsPage(c, filters));
    },
  );
  r.get('/startups/:login', { ...page, schema: { hide: true, querystring: historyQuery } }, (q, s) => {
    const login = (q.params as { login: string }).login.toLowerCase();
    const period = q.query.period || undefined;
    const range = parseRange(q.query.range);
    return serve(q, s, historyKey(`/startups/${login}`, period, range), (c) => {
      const startup = c.snapshot.byLogin.get(login);
      return startup ? startupPage(c, startup, period, range) : undefined;
    });
  });
  for (const [suffix, type, build] of [
    ['history.csv', 'text/csv; charset=utf-8', historyCsv],
    ['history.json', 'application/json; charset=utf-8', historyJson],
  ] as const) {
    const options =
      suffix === 'history.csv'
        ? namedDownload((q) => `${(q.params as { login: string }).login.toLowerCase()}-history.csv`)
        : page;
    r.get<Param<'login'>>(`/startups/:login/${suffix}`, options, (q, s) => {
      const login = q.params.login.toLowerCase();
      return serve(
        q,
        s,
        `/startups/${login}/${suffix}`,
        async (c) => {
          const startup = c.snapshot.byLogin.get(login);
          return startup ? { download: rendered(await build(c, startup), type) } : undefined;
        },
        sendData,
      );
    });
  }
  // The compare picker: names or logins resolved by the strict rule (exact name, login or alias; a near name is a
  // "did you mean", as compare_startups and the answers treat it), then the canonical comparison URL.
  r.get(
    '/compare',
    {
      schema: {
        hide: true,
        querystring: z.object({ a: z.string().max(80).optional(), b: z.string().max(80).optional() }),
      },
    },
    (request, reply) => {
      const snapshot = currentSnapshot(ctx);
      const a = request.query.a?.trim() ?? '';
      const b = request.query.b?.trim() ?? '';
      const c = pageContext(snapshot, ctx.urls);
      if (!a && !b) return serve(request, reply, '/compare', () => compareIndexPage(c));
      const problems = [];
      const found = [a, b].map((name, i) => {
        if (!name) {
          problems.push(html`Type the ${i === 0 ? 'first' : 'second'} startup.`);
          return undefined;
        }
        const r = resolveStrict(snapshot, name);
        if (r.item) return r.item;
        // Each near name links to the comparison with it in place of the name typed.
        const near = r.candidates.slice(0, 3).map((c) => {
          const pair = i === 0 ? { a: c.name, b } : { a, b: c.name };
          return html`<a href="/compare?${new URLSearchParams(pair).toString()}">${c.name}</a>`;
        });
        const offer = near.length ? html`; did you mean ${near.map((n, k) => html`${k ? ', ' : ''}${n}`)}?` : '.';
        problems.push(html`No tracked startup is named “${name}”${offer}`);
        return undefined;
      });
      const [x, y] = found;
      if (x && y && x === y) problems.push(html`Pick two different startups.`);
      if (x && y && x !== y && problems.length === 0) {
        return reply
          .code(303)
          .header(
            'location',
            `/compare/${encodeURIComponent(x.login.toLowerCase())}-vs-${encodeURIComponent(y.login.toLowerCase())}`,
          )
          .send();
      }
      return reply
        .code(problems.length ? 404 : 200)
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', 'no-store')
        .send(layout(baseUrl, assets, compareIndexPage(c, { a, b, problems })));
    },
  );
  r.get(
    '/compare/:pair',
    { ...page, schema: { hide: true, querystring: z.object({ range: z.string().max(20).optional() }) } },
    (q, s) => {
      const pair = (q.params as { pair: string }).pair.toLowerCase();
      const range = parseRange(q.query.range);
      return serve(q, s, historyKey(`/compare/${pair}`, undefined, range), (c) => {
        const found = findComparison(c, pair);
        return found ? comparePage(c, ...found, range) : undefined;
      });
    },
  );
  r.get('/periods', page, (q, s) => serve(q, s, '/periods', periodsIndexPage));
  r.get<Param<'slug'>>('/periods/:slug', page, (q, s) =>
    serve(q, s, `/periods/${q.params.slug}`, (c) => periodPage(c, q.params.slug)),
  );
  r.get<Param<'slug'>>('/answers/:slug', page, (q, s) =>
    serve(q, s, `/answers/${q.params.slug}`, (c) => answerPage(c, q.params.slug)),
  );
  r.get('/faq', page, (q, s) => serve(q, s, '/faq', faqPage));
  r.get('/blog', page, (q, s) => serve(q, s, '/blog', (c) => blogIndexPage(c, posts)));
  r.get<Param<'slug'>>('/blog/:slug', page, (q, s) => {
    const post = posts.find((p) => p.slug === q.params.slug);
    return post ? serve(q, s, `/blog/${post.slug}`, (c) => blogPostPage(c, post)) : notFound(q, s);
  });
  r.get('/research', page, (q, s) => serve(q, s, '/research', researchIndexPage));
  r.get<Param<'slug'>>('/research/:slug', page, (q, s) => {
    const known = (RESEARCH_SLUGS as readonly string[]).includes(q.params.slug);
    return known ? serve(q, s, `/research/${q.params.slug}`, (c) => researchPage(c, q.params.slug)) : notFound(q, s);
  });
  r.get('/glossary', page, (q, s) => serve(q, s, '/glossary', () => glossaryPage(documents.glossary.document)));
  r.get('/methodology', page, (q, s) =>
    serve(q, s, '/methodology', () => methodologyPage(documents.methodology.document)),
  );
  r.get('/backtest', page, (q, s) =>
    serve(q, s, '/backtest', async (c) => backtestPage(await backtestReport(c.snapshot))),
  );
  r.get('/changelog', page, (q, s) =>
    serve(q, s, '/changelog', (c) => changelogPage(documents.changelog(c.snapshot).document)),
  );
  r.get('/pricing', page, (q, s) =>
    serve(q, s, '/pricing', () =>
      pricingPage(documents.pricing.document, { checkoutAvailable: ctx.services.checkout !== undefined }),
    ),
  );
  r.get('/markets', page, (q, s) =>
    serve(q, s, '/markets', async (c) => marketsPage(c, [...(await ctx.services.markets.all(c.snapshot)).values()])),
  );
  // The API reference, rendered from the OpenAPI document of this very server (every route is registered by then).
  r.get('/docs', page, (q, s) => serve(q, s, '/docs', () => docsPage(app.swagger() as OpenApiDocument)));

  // Search depends on the query: rendered per request (the index is built once per period), never cached here.
  r.get(
    '/search',
    {
      schema: {
        hide: true,
        querystring: z.object({
          q: z.string().max(SEARCH_QUERY_MAX).optional(),
          type: z.union([SearchType, z.literal('')]).optional(),
          page: z.coerce.number().int().min(1).max(SEARCH_MAX_PAGE).optional(),
        }),
      },
    },
    (request, reply) => {
      const snapshot = currentSnapshot(ctx);
      const { q = '', type, page: at = 1 } = request.query;
      const input = searchPage(pageContext(snapshot, ctx.urls), q, type || undefined, at);
      reply
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', 'public, max-age=60')
        .send(layout(baseUrl, assets, input));
    },
  );

  // The ask box: the answer service of /api/answer and /api/ask, rendered per question (never cached here). Sent
  // NLWeb's `query` instead of the box's `q`, /ask is the NLWeb protocol (routes/nlweb.ts), where NLWeb clients look.
  const nlweb = nlwebAskResponder(ctx);
  r.get(
    '/ask',
    { schema: { hide: true, querystring: z.looseObject({ q: z.string().max(ASK_QUERY_MAX).optional() }) } },
    (request, reply) => {
      if (request.query.q === undefined && request.query['query'] !== undefined) {
        const params = NlwebAskParams.safeParse(request.query);
        if (!params.success) {
          throw new ServiceError('nlweb-query-length');
        }
        return nlweb(params.data, reply as FastifyReply);
      }
      const input = askPage(pageContext(currentSnapshot(ctx), ctx.urls), request.query.q ?? '');
      reply
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', 'public, max-age=60')
        .send(layout(baseUrl, assets, { ...input, query: '' }));
    },
  );

  // A diligence dossier per entity: the dossier service of /api/diligence.json. Another form of a name (alias, slug,
  // typo) redirects to the canonical page; a name outside the corpus is a 404 page with its "did you mean".
  r.get<Param<'name'>>('/diligence/:name', page, (q, s) => {
    const { name } = q.params;
    const result = dossierPage(pageContext(currentSnapshot(ctx), ctx.urls), name);
    if ('redirect' in result) return s.code(301).header('location', result.redirect).headers(common).send();
    if (result.status === 404) {
      return s
        .code(404)
        .headers(common)
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', 'no-store')
        .send(layout(baseUrl, assets, result.page));
    }
    return serve(q, s, `/diligence/${name}`, () => result.page);
  });

  /** When a Scout look-up last found GitHub unavailable; cleared by one that succeeds. */
  let githubDown: Date | undefined;
  // Scout receipts: a live look-up (cached in the database by the scout core), so rendered per request, never cached
  // here, and limited like /api/receipts.
  r.get(
    '/scout',
    { schema: { hide: true, querystring: z.object({ username: z.string().max(100).optional() }) } },
    (request, reply) => {
      const username = request.query.username?.trim();
      if (username)
        return reply
          .code(303)
          .header('location', `/scout/${encodeURIComponent(username)}`)
          .send();
      // Rendered per request: it says at once whether GitHub failed the last look-up.
      return reply
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', 'no-cache')
        .send(
          layout(
            baseUrl,
            assets,
            scoutIndexPage({ tokenConfigured: Boolean(ctx.config.github.token), unreachableSince: githubDown }),
          ),
        );
    },
  );
  r.get(
    '/scout/:username',
    {
      schema: { hide: true, params: z.object({ username: z.string().max(200) }) },
      config: { rateLimit: 'receipts' as const },
    },
    async (request, reply) => {
      const { username } = request.params;
      let input: PageInput;
      let status = 200;
      try {
        input = scoutReceiptsPage(await ctx.services.scout.receipts(username));
        githubDown = undefined;
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        status = err.status;
        if (status >= 500) githubDown ??= new Date();
        reply.headers(problemResponse(err, undefined).headers);
        input = scoutProblemPage(username, err.status, err.detail ?? err.title);
      }
      return reply
        .code(status)
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', status === 200 ? 'public, max-age=300' : 'no-store')
        .send(layout(baseUrl, assets, input));
    },
  );

  // Browsers ask for /favicon.ico whatever the page declares.
  r.get('/favicon.ico', staticFile, (_request, reply) => {
    reply.code(301).header('location', assets.icon).header('cache-control', PUBLIC_CACHE).send();
  });

  for (const [path, asset] of assets.byPath) {
    r.get(path, staticFile, (request, reply) => {
      // A versioned URL (the one pages link to) never changes; the bare path may, so it is kept only briefly.
      const versioned = (request.query as Record<string, unknown>)['v'] === asset.version;
      sendRendered(request, reply, asset, {}, versioned ? IMMUTABLE : PUBLIC_CACHE);
    });
  }
}
