/**
 * Writes src/http/openapi-examples.json: an example request and response for every operation of the OpenAPI
 * document, captured from the real handlers through inject() over the demo in-memory period (the one the tests
 * serve), with fake GitHub, Stripe, x402 facilitator and Solana node standing in for the outside services. Arrays are
 * cut to two items and text bodies to their first lines; secrets the answers show once are replaced by same-shaped
 * placeholders. src/http/openapi.ts puts the examples into the document; test/http/routes/openapi-examples.test.ts
 * validates each against its response schema. Run after changing a route or a response schema:
 *
 *   npx tsx scripts/openapi-examples.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueKey } from '../src/payments/keys.js';
import { readMarkets } from '../src/core/markets/markets.js';
import { PACKAGED_CONTENT_DIR } from '../src/core/documents/content.js';
import { EXAMPLE_BASE_URL, type CapturedExamples, type CapturedOperation } from '../src/http/openapi-examples.js';
import { statusTitle, problemBody } from '../src/http/problem.js';
import { startTestApp } from '../test/helpers/app.js';
import { FakeGitHub } from '../test/helpers/fake-github.js';

export const EXAMPLES_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'http',
  'openapi-examples.json',
);

/** Arrays longer than this are cut to it. */
const ITEMS = 2;
/** Lines kept of a text body (CSV, JSON lines, feeds, SVG, HTML). */
const LINES = 12;
/** Characters kept of a text body's line. */
const LINE_CHARS = 240;

type Json = unknown;

interface Recipe {
  operationId: string;
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** The path template's parameters, as the request filled them (shown in the curl line). */
  pathParams?: Record<string, string>;
  query?: Record<string, string>;
  body?: Json;
  headers?: Record<string, string>;
  /** Send the credit-pack key. */
  key?: boolean;
  /** Shape the captured JSON further (besides cutting arrays). */
  trim?: (value: Json) => Json;
}

function cutArrays(value: Json): Json {
  if (Array.isArray(value)) return value.slice(0, ITEMS).map(cutArrays);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutArrays(v)]));
  return value;
}

/** The first lines of a text body, each at most LINE_CHARS long, and whether anything was left off. */
function firstLines(text: string): { value: string; cut: boolean } {
  const lines = text.split(/(?<=\n)/);
  const kept = lines.slice(0, LINES).map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS)}…\n` : l));
  const value = kept.join('');
  return { value, cut: value !== text };
}

/** Replaces a shown-once secret with a placeholder of the same shape (prefix and length). */
function redact(value: Json): Json {
  if (typeof value === 'string') {
    return value.replace(/\b(sigsk_|whsec_)([A-Za-z0-9_-]+)/g, (_m, prefix: string, rest: string) =>
      `${prefix}${'EXAMPLE'.padEnd(rest.length, 'x')}`.slice(0, prefix.length + rest.length),
    );
  }
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
  return value;
}

async function main(): Promise<void> {
  const github = await FakeGitHub.start({ allowAnonymous: true, users: [] });
  const svc = await startTestApp({
    BASE_URL: EXAMPLE_BASE_URL,
    GITHUB_API_URL: github.url,
    GITHUB_RETRY_BASE_MS: '1',
    SCOUT_MAX_STAR_PAGES: '2',
    ALERTS_SECRET: 'example-alerts-secret-used-only-to-capture-examples',
  });
  try {
    const snapshot = svc.service.holder.current!;
    const startup = snapshot.startups[0]!;
    const org = startup.login;
    const name = startup.startup.name;
    const scout = 'example-scout';
    github.setUser({
      login: scout,
      stars: [
        { repo: `${org}/app`, starredAt: '2024-01-01T00:00:00Z', language: 'TypeScript' },
        { repo: 'example-org/db', starredAt: '2024-01-02T00:00:00Z', language: 'Go', topics: ['database'] },
      ],
    });
    const market = readMarkets(PACKAGED_CONTENT_DIR).markets[0]!.slug;
    const { key } = await issueKey(svc.service.store.db, { credits: 5, reason: 'example' });
    const answers = (await (await svc.get('/api/answers.json')).json()) as { answers: { question: string }[] };
    const question = answers.answers[0]!.question;

    const recipes: Recipe[] = [
      { operationId: 'getSignals', path: '/api/signals.json' },
      { operationId: 'getSignalsCsv', path: '/api/signals.csv' },
      { operationId: 'getSignal', path: '/api/signal', query: { company: name } },
      { operationId: 'getDataset', path: '/api/dataset.jsonl' },
      { operationId: 'healthz', path: '/healthz' },
      { operationId: 'readyz', path: '/readyz' },
      {
        operationId: 'getOpenApi',
        path: '/api/openapi.json',
        trim: (d) => {
          const doc = d as Record<string, Json>;
          return { openapi: doc.openapi, info: doc.info };
        },
      },
      { operationId: 'getAnswer', path: '/api/answer', query: { q: question } },
      { operationId: 'ask', path: '/api/ask', query: { q: name, limit: '2' } },
      { operationId: 'getAnswers', path: '/api/answers.json' },
      { operationId: 'getFaqV1', path: '/api/v1/faq.json' },
      { operationId: 'llmsSearch', path: '/api/llms-search', query: { q: name, limit: '2' } },
      { operationId: 'getDiligence', path: '/api/diligence.json', query: { company: name } },
      { operationId: 'postDiligence', method: 'POST', path: '/api/diligence.json', body: { company: name } },
      { operationId: 'nlweb', method: 'POST', path: '/api/nlweb', body: { query: name } },
      { operationId: 'nlwebAsk', path: '/api/nlweb/ask', query: { query: name, streaming: 'false' } },
      {
        operationId: 'nlwebAskPost',
        method: 'POST',
        path: '/api/nlweb/ask',
        body: { query: name, streaming: false },
      },
      { operationId: 'nlwebAskRoot', method: 'POST', path: '/ask', body: { query: name, streaming: false } },
      { operationId: 'getChangelog', path: '/api/changelog.json' },
      { operationId: 'getMethodology', path: '/api/v1/methodology.json' },
      { operationId: 'getGlossary', path: '/api/v1/glossary.json' },
      { operationId: 'getPricing', path: '/api/v1/pricing.json' },
      { operationId: 'getMembers', path: '/api/v1/members.json' },
      { operationId: 'getAffiliates', path: '/api/v1/affiliates.json' },
      { operationId: 'getSocialMascot', path: '/api/v1/social-mascot.json' },
      { operationId: 'getBacktest', path: '/api/v1/backtest.json' },
      { operationId: 'getFeed', path: '/feed.xml' },
      { operationId: 'getLlmsTxt', path: '/llms.txt' },
      {
        operationId: 'getCitation',
        path: '/api/cite/bibtex/dataset',
        pathParams: { format: 'bibtex', slug: 'dataset' },
      },
      { operationId: 'getMarket', path: `/api/markets/${market}`, pathParams: { slug: market } },
      { operationId: 'getAgents', path: '/api/agents.json' },
      { operationId: 'getAgentTools', path: '/api/agent/tools', query: { format: 'openai' } },
      {
        operationId: 'callAgentTool',
        method: 'POST',
        path: '/api/agent/call',
        body: { name: 'get_startup_signal', arguments: JSON.stringify({ name }) },
      },
      { operationId: 'getScoutReceipts', path: `/api/receipts/${scout}`, pathParams: { username: scout } },
      { operationId: 'getScoutPredictions', path: '/api/scout/predict', query: { username: scout, limit: '2' } },
      { operationId: 'getScoutCard', path: `/api/scout/card/${scout}/svg`, pathParams: { username: scout } },
      { operationId: 'getScoutBadge', path: `/api/badge/scout/${scout}/svg`, pathParams: { username: scout } },
      { operationId: 'getBuiltWithBadge', path: '/api/badge/built-with/svg' },
      {
        operationId: 'getMomentumBadge',
        path: `/api/badge/momentum/${org}/app/svg`,
        pathParams: { org, repo: 'app' },
      },
      { operationId: 'postDeepSignal', method: 'POST', path: '/api/agent/deep-signal', body: { name }, key: true },
      { operationId: 'getAccountCredits', path: '/api/account/credits', key: true },
      { operationId: 'getCreditsPage', path: '/agents/credits' },
      { operationId: 'getMcpServerJson', path: '/.well-known/mcp/server.json' },
      { operationId: 'getMcpManifest', path: '/.well-known/mcp.json' },
      {
        operationId: 'postMcpRpc',
        method: 'POST',
        path: '/api/mcp/rpc',
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_startup_signal', arguments: { name } },
        },
      },
      { operationId: 'getAgentCard', path: '/.well-known/agent-card.json' },
      {
        operationId: 'postA2a',
        method: 'POST',
        path: '/api/a2a',
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: 'example-message-1',
              role: 'user',
              parts: [{ kind: 'text', text: `Signal for ${name}` }],
            },
          },
        },
      },
      { operationId: 'getAlertsPage', path: '/alerts' },
    ];

    const operations: Record<string, CapturedOperation> = {};
    const failures: string[] = [];
    const capture = async (recipe: Recipe): Promise<Json | undefined> => {
      const method = recipe.method ?? 'GET';
      const query = recipe.query ? `?${new URLSearchParams(recipe.query)}` : '';
      const headers: Record<string, string> = { ...(recipe.headers ?? {}) };
      if (recipe.body !== undefined) headers['content-type'] = 'application/json';
      if (recipe.key) headers.authorization = `Bearer ${key}`;
      const res = await svc.get(`${recipe.path}${query}`, {
        method,
        headers,
        ...(recipe.body !== undefined ? { body: JSON.stringify(recipe.body) } : {}),
        redirect: 'manual',
      });
      const status = res.status;
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (status >= 300) {
        failures.push(
          `${recipe.operationId}: ${method} ${recipe.path}${query} answered ${status}: ${await res.text()}`,
        );
        return undefined;
      }
      const entry: CapturedOperation = {
        request: {
          ...(recipe.pathParams ? { path: recipe.pathParams } : {}),
          ...(recipe.query ? { query: recipe.query } : {}),
          ...(recipe.body !== undefined ? { body: recipe.body } : {}),
        },
        responses: {},
      };
      if (status === 204) {
        operations[recipe.operationId] = entry;
        return undefined;
      }
      const text = await res.text();
      let value: Json;
      let summary: string;
      if (/json$/.test(contentType) && contentType !== 'application/x-ndjson') {
        const parsed = JSON.parse(text) as Json;
        const shaped = cutArrays(recipe.trim ? recipe.trim(parsed) : parsed);
        value = redact(shaped);
        summary =
          JSON.stringify(shaped) === JSON.stringify(parsed)
            ? 'A response over the demo data'
            : 'A response over the demo data, lists cut to two items';
        if (recipe.trim) summary = 'A response over the demo data, top-level fields only';
        entry.responses[String(status)] = { contentType, summary, value };
        operations[recipe.operationId] = entry;
        return parsed;
      }
      const lines = firstLines(text);
      value = redact(lines.value);
      summary = lines.cut ? `The first lines of a response over the demo data` : 'A response over the demo data';
      entry.responses[String(status)] = { contentType, summary, value };
      operations[recipe.operationId] = entry;
      return text;
    };

    for (const recipe of recipes) await capture(recipe);

    const problems: CapturedExamples['problems'] = {};
    const captureProblem = async (label: string, request: () => Promise<Response>) => {
      const res = await request();
      const body = (await res.json()) as Record<string, Json>;
      problems[String(res.status)] = { summary: label, value: redact(cutArrays(body)) };
    };
    await captureProblem('GET /api/signal without a company', () => svc.get('/api/signal'));
    await captureProblem('GET /api/account/credits without a key', () => svc.get('/api/account/credits'));
    await captureProblem('GET /api/markets/no-such-market', () => svc.get('/api/markets/no-such-market'));
    await captureProblem('POST /api/agent/deep-signal with a text body', () =>
      svc.get('/api/agent/deep-signal', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: `Bearer ${key}` },
        body: 'hello',
      }),
    );

    if (failures.length) throw new Error(`could not capture:\n${failures.join('\n')}`);
    const out: CapturedExamples = { operations, problems };
    writeFileSync(EXAMPLES_FILE, `${JSON.stringify(out, null, 2)}\n`);
    console.log(
      `wrote ${path.relative(process.cwd(), EXAMPLES_FILE)}: ${Object.keys(operations).length} operations, ${Object.keys(problems).length} problems`,
    );
    void statusTitle;
    void problemBody;
  } finally {
    await svc.close();
    await github.close();
  }
}

await main();
