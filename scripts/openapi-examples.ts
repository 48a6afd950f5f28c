/**
 * Writes src/http/openapi-examples.json: an example request and response for every operation of the OpenAPI
 * document, captured from the real handlers through inject() over the demo in-memory period (the one the tests
 * serve), with fake GitHub, Stripe, x402 facilitator and Solana node standing in for the outside services. Arrays are
 * cut to one item and text bodies to their first lines; secrets the answers show once are replaced by same-shaped
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
import { startTestApp } from '../test/helpers/app.js';
import { FakeGitHub } from '../test/helpers/fake-github.js';
import { FakeSmtp } from '../test/helpers/fake-smtp.js';
import Stripe from 'stripe';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as prettier from 'prettier';
import { FakeStripe } from '../test/helpers/fake-stripe.js';
import { startFakeFacilitator } from '../test/helpers/fake-facilitator.js';
import { testPayer } from '../test/helpers/x402-payer.js';
import {
  randomAddress,
  randomSignature,
  startFakeSolanaRpc,
  transferTransaction,
} from '../test/helpers/fake-solana-rpc.js';
import type { PaymentRequirements } from '../src/payments/x402/requirements.js';

export const EXAMPLES_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'http',
  'openapi-examples.json',
);

/** Arrays longer than this are cut to it. */
const ITEMS = 1;
/** Lines kept of a text body (CSV, feeds, SVG, HTML); of JSON lines, whose lines are long, fewer. */
const LINES = 6;
const JSON_LINES = 1;

type Json = unknown;

/** Throwaway values of the fake payment rails (no real account, wallet or secret). */
const STRIPE_WEBHOOK_SECRET = 'whsec_example_only_for_capturing_examples';
const X402_PAY_TO = '0x000000000000000000000000000000000000dEaD';
const DEVNET_USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';

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
  /** The status the request must answer (a success by default); a captured error status adds to the operation. */
  status?: number;
  /** Raw body text (sent as is, shown as the body example when `body` is not given). */
  rawBody?: string;
  /** Shape the captured JSON further (besides cutting arrays). */
  trim?: (value: Json) => Json;
}

/** Cuts every array to ITEMS, or to the length its schema requires at least (`least`, by the array's JSON pointer). */
function cutArrays(value: Json, least: Map<string, number> = new Map(), at = ''): Json {
  if (Array.isArray(value))
    return value.slice(0, Math.max(ITEMS, least.get(at) ?? 0)).map((v, i) => cutArrays(v, least, `${at}/${i}`));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutArrays(v, least, `${at}/${k}`)]));
  return value;
}

/**
 * The response cut to one item per array, except where its schema asks for more (`minItems`): the schema's own
 * validator says which arrays came out too short.
 */
function cutToSchema(value: Json, validate: ValidateFunction | undefined): Json {
  const least = new Map<string, number>();
  for (;;) {
    const cut = cutArrays(value, least);
    if (!validate || validate(cut)) return cut;
    const short = (validate.errors ?? []).filter((e) => e.keyword === 'minItems');
    if (!short.length) return cut; // the test that validates the examples names what else is wrong
    for (const e of short) least.set(e.instancePath, Number(e.params.limit));
  }
}

/** The first `count` lines of a text body, and whether anything was left off. */
function firstLines(text: string, count: number): { value: string; cut: boolean } {
  const value = text
    .split(/(?<=\n)/)
    .slice(0, count)
    .join('');
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
  const smtp = await FakeSmtp.start();
  const stripeApi = await FakeStripe.start();
  const facilitator = await startFakeFacilitator();
  const solanaRpc = await startFakeSolanaRpc();
  const solanaPayTo = await randomAddress();
  const svc = await startTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Signal Service <keys@signal-service.example>',
    STRIPE_SECRET_KEY: 'sk_test_example',
    STRIPE_PRICE_ID: 'price_example',
    STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: stripeApi.url,
    X402_PAY_TO: X402_PAY_TO,
    X402_FACILITATOR_URL: facilitator.url,
    X402_RPC_URL: facilitator.rpcUrl,
    SOLANA_PAY_TO: solanaPayTo,
    SOLANA_RPC_URL: solanaRpc.url,
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
        // The text content is the JSON of structuredContent: cut the same way.
        trim: (reply) => {
          const r = reply as { result?: { content?: { type: string; text?: string }[]; structuredContent?: Json } };
          for (const c of r.result?.content ?? [])
            if (c.type === 'text' && c.text?.startsWith('{')) c.text = JSON.stringify(cutArrays(JSON.parse(c.text)));
          return reply;
        },
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
      {
        operationId: 'postMcp',
        method: 'POST',
        path: '/mcp',
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
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

    // The document's response schemas, to keep the arrays they require to be longer than one item.
    const doc = (await (await svc.get('/api/openapi.json')).json()) as {
      components: object;
      paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, any> }>>;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('uri', { type: 'string', validate: (s: string) => URL.canParse(s) }); // as z.url() checks
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const schemaOf = new Map<string, object>();
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const [status, response] of Object.entries(op.responses ?? {}))
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, { schema?: object }>))
            if (media.schema) schemaOf.set(`${op.operationId} ${status} ${type}`, media.schema);
    const validatorOf = (recipe: Recipe, status: number, contentType: string) => {
      const schema = schemaOf.get(`${recipe.operationId} ${status} ${contentType}`);
      if (!schema) return undefined;
      return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
    };

    const operations: Record<string, CapturedOperation> = {};
    const failures: string[] = [];
    const capture = async (recipe: Recipe): Promise<Json | undefined> => {
      const method = recipe.method ?? 'GET';
      const query = recipe.query ? `?${new URLSearchParams(recipe.query)}` : '';
      const headers: Record<string, string> = { ...(recipe.headers ?? {}) };
      if (recipe.body !== undefined || recipe.rawBody !== undefined) headers['content-type'] ??= 'application/json';
      if (recipe.key) headers.authorization = `Bearer ${key}`;
      const res = await svc.get(`${recipe.path}${query}`, {
        method,
        headers,
        ...(recipe.body !== undefined ? { body: JSON.stringify(recipe.body) } : {}),
        ...(recipe.rawBody !== undefined ? { body: recipe.rawBody } : {}),
        redirect: 'manual',
      });
      const status = res.status;
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (recipe.status ? status !== recipe.status : status >= 300) {
        failures.push(
          `${recipe.operationId}: ${method} ${recipe.path}${query} answered ${status}: ${await res.text()}`,
        );
        return undefined;
      }
      const isError = status >= 400;
      const entry: CapturedOperation =
        operations[recipe.operationId] && isError
          ? operations[recipe.operationId]!
          : {
              request: {
                ...(recipe.pathParams ? { path: recipe.pathParams } : {}),
                ...(recipe.query ? { query: recipe.query } : {}),
                ...(recipe.headers?.accept ? { headers: { Accept: recipe.headers.accept } } : {}),
                ...(recipe.body !== undefined ? { body: redact(recipe.body) } : {}),
                ...(recipe.body === undefined && recipe.rawBody !== undefined
                  ? { body: JSON.parse(recipe.rawBody) }
                  : {}),
              },
              responses: operations[recipe.operationId]?.responses ?? {},
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
        const shaped = cutToSchema(
          recipe.trim ? recipe.trim(parsed) : parsed,
          validatorOf(recipe, status, contentType),
        );
        value = redact(shaped);
        summary =
          JSON.stringify(shaped) === JSON.stringify(parsed)
            ? 'A response over the demo data'
            : 'A response over the demo data, lists cut to one item';
        if (recipe.operationId === 'getOpenApi') summary = 'A response over the demo data, top-level fields only';
        entry.responses[String(status)] = { contentType, summary, value };
        operations[recipe.operationId] = entry;
        return parsed;
      }
      // A page's head is the same on every page: its main content says what the page is.
      const main = contentType === 'text/html' ? text.indexOf('<main') : -1;
      const lines = firstLines(
        main >= 0 ? text.slice(main) : text,
        contentType === 'application/x-ndjson' ? JSON_LINES : LINES,
      );
      // A JSON line's record is cut like a JSON response.
      value = redact(
        contentType === 'application/x-ndjson'
          ? lines.value.replace(/^.+$/gm, (line) => JSON.stringify(cutArrays(JSON.parse(line) as Json)))
          : lines.value,
      );
      summary =
        contentType === 'application/x-ndjson'
          ? "The first line of a response over the demo data, its record's lists cut to one item"
          : main >= 0
            ? "The first lines of the page's main content, over the demo data"
            : lines.cut
              ? 'The first lines of a response over the demo data'
              : 'A response over the demo data';
      entry.responses[String(status)] = { contentType, summary, value };
      operations[recipe.operationId] = entry;
      return text;
    };

    for (const recipe of recipes) await capture(recipe);

    // Alerts: one subscription, created, read, its feed and unsubscribe page, the page's form, then deleted.
    const created = (await capture({
      operationId: 'postAlertSubscription',
      method: 'POST',
      path: '/api/alerts/subscriptions',
      key: true,
      body: {
        label: 'Weekly watch',
        watch: { startups: [org] },
        email: 'investor@example.com',
      },
    })) as { id: string; feedUrl: string } | undefined;
    if (created) {
      const id = created.id;
      const feedToken = new URL(created.feedUrl).searchParams.get('token') ?? '';
      const unsubscribe = svc.service.core.services.alerts!.unsubscribeToken(id);
      const sub = `/api/alerts/subscriptions/${id}`;
      await capture({ operationId: 'listAlertSubscriptions', path: '/api/alerts/subscriptions', key: true });
      await capture({ operationId: 'getAlertSubscription', path: sub, pathParams: { id }, key: true });
      await capture({ operationId: 'getAlertDeliveries', path: `${sub}/deliveries`, pathParams: { id }, key: true });
      await capture({
        operationId: 'getAlertFeed',
        path: `${sub}/feed.atom`,
        pathParams: { id },
        query: { token: feedToken },
      });
      await capture({
        operationId: 'getAlertUnsubscribePage',
        path: '/alerts/unsubscribe',
        query: { token: unsubscribe },
      });
      await capture({ operationId: 'postAlertsPage', method: 'POST', path: '/alerts', body: { key, action: 'list' } });
      await capture({
        operationId: 'postAlertUnsubscribe',
        method: 'POST',
        path: '/alerts/unsubscribe',
        body: { token: unsubscribe },
      });
      await capture({
        operationId: 'deleteAlertSubscription',
        method: 'DELETE',
        path: sub,
        pathParams: { id },
        key: true,
      });
    }

    // Operations whose problem documents carry fields of their own.
    await capture({ operationId: 'getAnswer', path: '/api/answer', query: { q: 'zzqx qqzx' }, status: 404 });
    await capture({ operationId: 'getMarket', path: '/api/markets/no-such-market', status: 404 });

    // Card checkout against the fake Stripe: a session, its webhook, the page that shows the key once.
    await capture({ operationId: 'postCheckoutSession', method: 'POST', path: '/api/checkout/sessions', body: {} });
    const sessionId = 'cs_test_example_session';
    const event = JSON.stringify({
      id: 'evt_test_example',
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          customer_email: null,
          customer_details: { email: 'buyer@example.com' },
        },
      },
    });
    await capture({
      operationId: 'postStripeWebhook',
      method: 'POST',
      path: '/api/webhooks/stripe',
      rawBody: event,
      headers: {
        'stripe-signature': new Stripe('sk_test_signing_only').webhooks.generateTestHeaderString({
          payload: event,
          secret: STRIPE_WEBHOOK_SECRET,
        }),
      },
    });
    await capture({
      operationId: 'getCheckoutSuccess',
      path: '/agents/credits/success',
      query: { session_id: sessionId },
    });

    // x402 against the fake facilitator: the 402 offer, then a paid call with a throwaway wallet's payment.
    const offer = (await (
      await svc.get('/api/agent/deep-signal/x402', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
    ).json()) as { accepts: PaymentRequirements[] };
    const payment = await testPayer().pay(offer.accepts[0]!);
    await capture({
      operationId: 'postDeepSignalX402',
      method: 'POST',
      path: '/api/agent/deep-signal/x402',
      body: { name },
      headers: { 'x-payment': payment.header },
    });
    await capture({
      operationId: 'postDeepSignalX402',
      method: 'POST',
      path: '/api/agent/deep-signal/x402',
      body: { name },
      status: 402,
    });

    // Solana against the fake node: the terms, then a redeemed transfer of the price.
    await capture({ operationId: 'getSolanaPaymentTerms', path: '/api/agent/deep-signal/solana' });
    const signature = randomSignature();
    solanaRpc.transactions.set(
      signature,
      await transferTransaction({ signature, mint: DEVNET_USDC, recipient: solanaPayTo, amount: 19_000_000n }),
    );
    await capture({
      operationId: 'redeemSolanaPayment',
      method: 'POST',
      path: '/api/agent/deep-signal/solana',
      body: { signature },
      key: true,
    });

    const problems: CapturedExamples['problems'] = {};
    const captureProblem = async (label: string, request: () => Promise<Response>) => {
      const res = await request();
      const body = (await res.json()) as Record<string, Json>;
      problems[String(res.status)] = { summary: label, value: redact(cutArrays(body)) };
    };
    await captureProblem('GET /api/signal without a company', () => svc.get('/api/signal'));
    await captureProblem('GET /api/account/credits without a key', () => svc.get('/api/account/credits'));
    await captureProblem('GET /api/cite/apa/no-such-document', () => svc.get('/api/cite/apa/no-such-document'));
    await captureProblem('POST /api/agent/deep-signal with a text body', () =>
      svc.get('/api/agent/deep-signal', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: `Bearer ${key}` },
        body: 'hello',
      }),
    );

    if (failures.length) throw new Error(`could not capture:\n${failures.join('\n')}`);
    const out: CapturedExamples = { operations, problems };
    // Written as the project's formatter writes JSON, so `npm run format:check` passes on it.
    const options = (await prettier.resolveConfig(EXAMPLES_FILE)) ?? {};
    writeFileSync(EXAMPLES_FILE, await prettier.format(JSON.stringify(out), { ...options, filepath: EXAMPLES_FILE }));
    console.log(
      `wrote ${path.relative(process.cwd(), EXAMPLES_FILE)}: ${Object.keys(operations).length} operations, ${Object.keys(problems).length} problems`,
    );
  } finally {
    await svc.close();
    await github.close();
    await smtp.close();
    await stripeApi.close();
    await facilitator.close();
    await solanaRpc.close();
  }
}

await main();
