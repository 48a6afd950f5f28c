import { gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { DEMO_PERIODS, DEMO_STARTUPS, demoPublishedAt } from '../../src/pipeline/demo/seed.js';
import type { RunningService } from '../../src/service.js';
import type { DemoDataset } from '../../src/pipeline/demo/generate.js';
import { lastCompletePeriod } from '../../src/domain/periods.js';
import { datasetSnapshot } from '../../src/snapshot/generated.js';
import { startPeriodPoller } from '../../src/snapshot/holder.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { createStore, storeOptions } from '../../src/store/database.js';
import { createTestStorage, type TestStorage } from './database.js';
import { startingContents } from './service.js';
import { generatedDemo } from './demo.js';
import { freePort } from './net.js';

/**
 * The startups of the default in-memory period: the demo seed's first 90 (6 in each of the 15 sectors, more than any
 * sector market's top 5), over the demo's 30 weeks: about a quarter of the generation time of the 315 a start stores,
 * and nothing is written to the store.
 */
export const TEST_STARTUPS = 90;

/** The base URL of an application reached in-process: `.invalid` never resolves, so nothing leaves the process. */
export const IN_PROCESS_URL = 'http://signal-service.invalid';

export interface TestAppOptions {
  /** The embedded engine even when DATABASE_URL is set. */
  forceEmbedded?: boolean;
  /**
   * The period served, built in memory: by default the demo data's seed and weeks with TEST_STARTUPS startups
   * (`demoPeriod`). Ignored with `store`.
   */
  snapshot?: (config: Config) => Snapshot;
  /**
   * Serve what the store holds, as a start does: the demo data is written into an empty store (unless DEMO_DATA is
   * off), the newest period is loaded and newly published ones are picked up. For tests that need stored periods.
   */
  store?: boolean;
  /** With an in-memory period: also pick up periods published into the (empty) store, as a start does. */
  watchPeriods?: boolean;
  /** Listen on a free port of 127.0.0.1 as well (tests that need a real socket); `url` is then its address. */
  listen?: boolean;
  /** The logger (silent by default, or LOG_LEVEL's level when `env` sets it). */
  log?: (config: Config) => Logger;
}

/** A test's application: the same fields as a started service's (`TestService`), reached in-process. */
export interface TestApp {
  /** The configured BASE_URL: what every canonical URL starts with, and what `fetch` accepts. */
  url: string;
  config: Config;
  /** The Fastify instance, the store, the period holder and the application, as `startService` returns them. */
  service: RunningService;
  storage: TestStorage;
  /** `fetch(url + path, init)`: a standard Response, from Fastify's inject() (no socket). */
  get(path: string, init?: RequestInit): Promise<Response>;
  /** A `fetch` for this application's URLs (for clients that take a fetch function). */
  fetch: typeof fetch;
  close(): Promise<void>;
}

const generated = new Map<string, DemoDataset>();

/**
 * The in-memory stand-in for the stored demo data: the generator with the demo seed, the demo's 30 weeks ending with
 * the last complete week and its publication times, and `startups` startups (the demo seed's first ones).
 */
export function demoPeriod(config: Config, options: { startups?: number; periods?: number } = {}): Snapshot {
  const demo = {
    seed: config.demo.seed,
    startups: options.startups ?? TEST_STARTUPS,
    periods: options.periods ?? DEMO_PERIODS,
    endPeriod: lastCompletePeriod(new Date()),
  };
  // The generated data is only read: a file that starts several apps reads it once.
  const key = JSON.stringify({ ...demo, endPeriod: demo.endPeriod.slug });
  let dataset = generated.get(key);
  if (!dataset) generated.set(key, (dataset = generatedDemo(demo)));
  return datasetSnapshot(dataset, {
    baseUrl: config.server.baseUrl,
    hashPrefix: 'demo',
    publishedAt: (period) => demoPublishedAt(period),
  }).snapshot;
}

/**
 * The in-memory equal of the demo data a first start stores: all its startups, weeks and publication times. For
 * route tests whose assertions name startups beyond the first TEST_STARTUPS, or count the stored demo's.
 */
export const storedDemoPeriod = (config: Config): Snapshot => demoPeriod(config, { startups: DEMO_STARTUPS });

/**
 * Builds the application (createApp) over its own storage, serving an in-memory period, and its HTTP server
 * (buildServer), reached through inject(): no demo data written, no port, no socket. `env` overrides configuration
 * variables, as for startTestService. One per test file (`before`/`after`).
 */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  // Served from the store, it holds what a first start stores; beside an in-memory period, no period at all.
  const storage = await createTestStorage({
    forceEmbedded: options.forceEmbedded,
    contents: options.store ? startingContents(env) : 'migrated',
  });
  const port = options.listen ? await freePort() : undefined;
  const url = port ? `http://127.0.0.1:${port}` : IN_PROCESS_URL;
  const config = loadConfig({
    BASE_URL: url,
    HOST: '127.0.0.1',
    ...(port ? { PORT: String(port) } : {}),
    DATA_DIR: storage.dataDir,
    LOG_LEVEL: 'silent',
    PERIOD_POLL_MS: '200',
    // Tests send far more than a client's budget from one address; tests of the limiter turn it back on.
    RATE_LIMIT: 'off',
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    ...env,
  });
  const log = options.log?.(config) ?? createLogger(config.server);
  let core: App | undefined;
  let server: FastifyInstance | undefined;
  let stopWatching = () => {};
  try {
    // The store opens (the embedded engine starts in its own process) while the period is generated here.
    const opening = createStore(storeOptions(config.database));
    opening.ready.catch(() => {}); // awaited by open()
    let snapshot: Snapshot | undefined;
    try {
      snapshot = options.store ? undefined : (options.snapshot ?? demoPeriod)(config);
    } catch (err) {
      await opening.store.close().catch(() => {});
      throw err;
    }
    core = await createApp(config, log, { opening, snapshot });
    server = await buildServer(core, core);
    await core.open();
    if (snapshot && options.watchPeriods) {
      stopWatching = startPeriodPoller({
        db: core.store.db,
        baseUrl: config.server.baseUrl,
        holder: core.holder,
        intervalMs: config.periods.pollMs,
        onError: (err) => log.warn({ err }, 'could not check for a new period'),
      });
    }
    if (port) await server.listen({ port, host: '127.0.0.1' });
    else await server.ready();
    core.warmUp();
  } catch (err) {
    await server?.close().catch(() => {});
    await core?.close().catch(() => {});
    await storage.cleanup();
    throw err;
  }
  const http = server;
  const app = core;
  const base = new URL(url);
  const call = (input: string | URL | Request, init?: RequestInit) =>
    port ? fetch(input, init) : injectFetch(http, base, input, init);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopWatching();
      await http.close();
      await app.close();
      await storage.cleanup();
    })());
  return {
    url,
    config,
    service: { app: http, store: app.store, holder: app.holder, core: app, address: url, close },
    storage,
    get: (path, init) => call(`${url}${path}`, init),
    fetch: call as typeof fetch,
    close,
  };
}

/** The request headers Node's fetch adds when the caller sets none (what the server saw from the tests before). */
const FETCH_DEFAULTS: Record<string, string> = {
  connection: 'keep-alive',
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * What `fetch` would answer for a request to this application, through inject(): the request is normalised by the
 * standard Request (its URL, the content type of a string or form body) and sent with fetch's default headers; the
 * answer is a standard Response, with redirects inside the application followed unless `redirect: 'manual'`.
 */
async function injectFetch(
  server: FastifyInstance,
  base: URL,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  let request = new Request(typeof input === 'string' ? new URL(input, base) : input, init);
  for (let hops = 0; ; hops++) {
    const url = new URL(request.url);
    if (url.origin !== base.origin) throw new TypeError(`an in-process test app answers ${base.origin} only: ${url}`);
    const headers: Record<string, string> = { ...FETCH_DEFAULTS, host: url.host };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await server.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(payload ? { payload } : {}),
      remoteAddress: '127.0.0.1',
    });
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && request.redirect !== 'manual') {
      if (request.redirect === 'error') throw new TypeError('fetch failed: redirect');
      if (hops >= 20) throw new TypeError('fetch failed: too many redirects');
      const toGet =
        res.statusCode === 303
          ? request.method !== 'HEAD'
          : [301, 302].includes(res.statusCode) && request.method === 'POST';
      request = new Request(new URL(location, url), {
        method: toGet ? 'GET' : request.method,
        headers: request.headers,
        body: toGet || !payload ? undefined : payload,
        redirect: request.redirect,
      });
      continue;
    }
    const answer = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answer.append(name, String(one));
    }
    let body: Buffer | null = NULL_BODY.has(res.statusCode) || request.method === 'HEAD' ? null : res.rawPayload;
    const encoding = answer.get('content-encoding');
    if (body && encoding === 'gzip') body = gunzipSync(body);
    else if (body && encoding === 'deflate') body = inflateSync(body);
    return new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: answer });
  }
}
