import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isGenericWord } from '../../src/domain/matcher.js';
import { issueKey } from '../../src/payments/keys.js';
import type { PaymentRequirements, PaymentRequirementsV2 } from '../../src/payments/x402/requirements.js';
import { X402PaymentRequired, X402PaymentRequiredV2 } from '../../src/schemas/payments.js';
import { startFakeFacilitator, type FakeFacilitator } from '../helpers/fake-facilitator.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { testPayer } from '../helpers/x402-payer.js';

// Bodies of many shapes, read field by field.
type Json = Record<string, any>;

const PAY_TO = '0x209693bc6afc0c5328ba36faf03c514ef312287c';
const X402 = '/api/agent/deep-signal/x402';

/**
 * What one surface did with a name:
 * - `outcome`: the entity it answered with, or "none" for a miss;
 * - `candidates`: the names of its "did you mean" list, sorted ([] when it offers none), or undefined where the
 *   surface's shape has no such list (/api/ask, NLWeb, the search page);
 * - `charged`, `balanceChange`: on the surfaces paid with a credit key, the credits the answer says it charged and
 *   how the key's balance moved;
 * - `charged`, `status`, `settled`, `receipt`: on x402, what the answer says it charged, its status (404 for a miss),
 *   the settlements the facilitator was asked for, and whether a settlement receipt header came back.
 */
interface Seen {
  outcome: string;
  candidates?: string[];
  charged?: number;
  balanceChange?: number;
  status?: number;
  settled?: number;
  receipt?: boolean;
}

/**
 * Which names a surface can offer as candidates: `startups` looks up tracked startups only (the signal lookup,
 * Deep Signal); `entities` also the real companies and funds of the diligence corpus; `none`: its shape has no list.
 */
type Domain = 'startups' | 'entities' | 'none';
/** How a surface is paid: with a credit-pack key, per call with x402, or not at all. */
type Payment = 'credits' | 'x402' | 'free';

/** One table of names: each row a case, each surface one expectation, the same outcome everywhere. */
interface Case {
  behaviour: string;
  name: (world: World) => string;
  /** The surfaces that answer, with the entity they answer; every other surface misses. */
  answers?: (world: World) => Record<string, string>;
  /** The candidates a miss offers, by the surface's domain. */
  offers: (world: World) => { startups: string[]; entities: string[] };
}

/** Names taken from the period served. */
interface World {
  /** A tracked startup typed with one letter too many in its distinctive first word, and the startup. */
  typo: { name: string; of: string };
  /** A tracked startup typed with one letter too many in its generic last word ("Harvestx"), and the startup. */
  genericTypo: { name: string; of: string };
  /** The first word shared by exactly two tracked startups, and the two. */
  prefix: { name: string; of: string[] };
  /** A tracked startup by its exact name. */
  exact: string;
  /** The first word of exactly one tracked startup's name (no other name starts with it), and the startup. */
  firstWord: { name: string; of: string };
}

/** What "Who acquired X?" answers for a demo startup, which has no deals: the FAQ saying so. */
const DEMO_DEALS_FAQ = 'Why does a demo startup have no acquisitions or backers?';

describe('names across surfaces', () => {
  let svc: TestService;
  let facilitator: FakeFacilitator;
  let key: string;
  let mcp: Client;
  let world: World;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    svc.get(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const json = async (response: Response) => (await response.json()) as Json;
  const bearer = () => ({ authorization: `Bearer ${key}` });

  /** The names of a candidate list, sorted; [] when absent. */
  const names = (list: Json[] | undefined) => (list ?? []).map((c) => String(c.name)).sort();

  /** The company an answer is about: a startup's answer names it in its question, any other answer is its question. */
  function answerSubject(hit: Json): string {
    const question = String(hit.question);
    return /signal for (.+)\?$/.exec(question)?.[1] ?? question;
  }

  /** A look-up of a tracked startup (its Startup record, or found: false with candidates). */
  const signalSeen = (found: boolean, name: string | undefined, candidates: Json[] | undefined): Seen => ({
    outcome: found ? name! : 'none',
    candidates: names(candidates),
  });
  /** A dossier body (REST or tool): the entity, or a miss with candidates beside the dossier. */
  const dossierSeen = (body: Json): Seen => ({
    outcome: body.dossier.found ? body.dossier.entity : 'none',
    candidates: names(body.candidates),
  });
  /** An answer body of /api/answer or the ask tool. */
  const answerSeen = (found: boolean, hit: Json | undefined, candidates: Json[] | undefined): Seen => ({
    outcome: found ? answerSubject(hit!) : 'none',
    candidates: names(candidates),
  });
  /** A Deep Signal body: the startup, or found: false with charged: 0 and candidates. */
  const deepSeen = (body: Json): Seen => ({
    outcome: body.found === false ? 'none' : body.name,
    candidates: names(body.candidates),
    charged: body.charged,
  });

  /** The balance of the credit key. */
  async function balance(): Promise<number> {
    return (await json(await svc.get('/api/account/credits', { headers: bearer() }))).balance as number;
  }

  /** A surface paid with the credit key: what it answered, and how the balance moved. */
  async function withBalance(call: () => Promise<Seen>): Promise<Seen> {
    const before = await balance();
    const seen = await call();
    return { ...seen, balanceChange: (await balance()) - before };
  }

  /** An MCP tools/call over HTTP with the official client (the key in its Authorization header). */
  async function mcpTool(name: string, args: Json): Promise<Json> {
    const result = (await mcp.callTool({ name, arguments: args })) as Json;
    assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Json;
  }

  /** The result of an A2A data-part request (protocol 0.3 JSON-RPC): the completed task's data, or undefined. */
  async function a2a(request: Json, key?: string): Promise<Json | undefined> {
    const reply = await json(
      await post(
        '/api/a2a',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: crypto.randomUUID(),
              role: 'user',
              parts: [{ kind: 'data', data: request }],
            },
          },
        },
        key ? { authorization: `Bearer ${key}` } : {},
      ),
    );
    const task = reply.result as Json;
    if (task?.status?.state !== 'completed') return undefined;
    return task.artifacts?.[0]?.parts?.find((p: Json) => p.kind === 'data')?.data as Json | undefined;
  }

  /** x402 Deep Signal paid with a fresh wallet, in protocol version 1 (X-PAYMENT) or 2 (PAYMENT-SIGNATURE). */
  async function x402(name: string, version: 1 | 2): Promise<Seen> {
    const offered = await post(X402, { name });
    assert.equal(offered.status, 402, `${X402} without payment`);
    const payer = testPayer();
    const header: Record<string, string> = {};
    if (version === 1) {
      const requirements = X402PaymentRequired.parse(await offered.json()).accepts[0] as PaymentRequirements;
      header['X-PAYMENT'] = (await payer.pay(requirements)).header;
    } else {
      const required = Buffer.from(offered.headers.get('payment-required')!, 'base64').toString('utf8');
      const offer = X402PaymentRequiredV2.parse(JSON.parse(required)).accepts[0] as PaymentRequirementsV2;
      header['PAYMENT-SIGNATURE'] = (await payer.payV2(offer)).header;
    }
    const settlesBefore = facilitator.settleCalls().length;
    const res = await post(X402, { name }, header);
    const receipt = res.headers.get(version === 1 ? 'x-payment-response' : 'payment-response') !== null;
    return {
      ...deepSeen(await json(res)),
      status: res.status,
      settled: facilitator.settleCalls().length - settlesBefore,
      receipt,
    };
  }

  /**
   * Every surface that takes a name, in order: its domain of candidates, how it is paid, and what it did with `name`.
   * An A2A task that does not complete is the outcome "error"; an MCP tool error fails the case.
   */
  const surfaces: Record<string, { domain: Domain; payment: Payment; see: (name: string) => Promise<Seen> }> = {
    'GET /api/signal': {
      domain: 'startups',
      payment: 'free',
      see: async (name) => {
        const body = await json(await svc.get(`/api/signal?company=${encodeURIComponent(name)}`));
        return signalSeen(body.found !== false, body.name, body.candidates);
      },
    },
    'tool get_startup_signal': {
      domain: 'startups',
      payment: 'free',
      see: async (name) => {
        const body = await json(await post('/api/agent/call', { name: 'get_startup_signal', arguments: { name } }));
        return signalSeen(body.found, body.startup?.name, body.candidates);
      },
    },
    'MCP get_startup_signal': {
      domain: 'startups',
      payment: 'free',
      see: async (name) => {
        const body = await mcpTool('get_startup_signal', { name });
        return signalSeen(body.found, body.startup?.name, body.candidates);
      },
    },
    'A2A startup-signal': {
      domain: 'startups',
      payment: 'free',
      see: async (name) => {
        const data = await a2a({ skill: 'startup-signal', arguments: { name } });
        if (!data) return { outcome: 'error' };
        return signalSeen(data.found, data.startup?.name, data.candidates);
      },
    },
    'GET /api/diligence.json': {
      domain: 'entities',
      payment: 'free',
      see: async (name) =>
        dossierSeen(await json(await svc.get(`/api/diligence.json?company=${encodeURIComponent(name)}`))),
    },
    'POST /api/diligence.json': {
      domain: 'entities',
      payment: 'free',
      see: async (name) => dossierSeen(await json(await post('/api/diligence.json', { company: name }))),
    },
    'tool get_diligence_dossier': {
      domain: 'entities',
      payment: 'free',
      see: async (name) =>
        dossierSeen(
          await json(await post('/api/agent/call', { name: 'get_diligence_dossier', arguments: { company: name } })),
        ),
    },
    'MCP get_diligence_dossier': {
      domain: 'entities',
      payment: 'free',
      see: async (name) => dossierSeen(await mcpTool('get_diligence_dossier', { company: name })),
    },
    'page /diligence/{name}': {
      domain: 'entities',
      payment: 'free',
      see: async (name) => {
        // Another form of a held name redirects to its canonical page (followed); a miss is a 404 page.
        const res = await svc.get(`/diligence/${encodeURIComponent(name)}`);
        const text = await res.text();
        if (res.status === 404) {
          const list = /<h2>Did you mean<\/h2>\s*<ul>([\s\S]*?)<\/ul>/.exec(text)?.[1] ?? '';
          return {
            outcome: 'none',
            candidates: [...list.matchAll(/<a href="[^"]*">([^<]+)<\/a>/g)].map((m) => m[1]!).sort(),
          };
        }
        const entity = /<h1>([^<]+): diligence dossier<\/h1>/.exec(text)?.[1];
        return { outcome: res.status === 200 && entity ? entity : `status ${res.status}`, candidates: [] };
      },
    },
    'page /search?q=': {
      domain: 'none',
      payment: 'free',
      // The page shows a tracked startup, or links a dossier, first when the query names one; a near name, neither.
      see: async (name) => {
        const text = await (await svc.get(`/search?q=${encodeURIComponent(name)}`)).text();
        // A tracked startup is shown first (its dossier is linked only when something is documented).
        const startup = /<section class="top-hit"[^>]*>\s*<p>\s*<a href="[^"]+"><strong>([^<]+)<\/strong>/.exec(
          text,
        )?.[1];
        return { outcome: startup ?? /the dossier of ([^<]+)<\/a>/.exec(text)?.[1] ?? 'none' };
      },
    },
    '/api/answer (signal)': {
      domain: 'entities',
      payment: 'free',
      see: async (name) => {
        const q = encodeURIComponent(`What is the engineering signal for ${name}?`);
        const body = await json(await svc.get(`/api/answer?q=${q}`));
        return answerSeen(body.found !== false, body, body.candidates);
      },
    },
    '/api/answer (deal)': {
      domain: 'entities',
      payment: 'free',
      see: async (name) => {
        const body = await json(await svc.get(`/api/answer?q=${encodeURIComponent(`Who acquired ${name}?`)}`));
        return answerSeen(body.found !== false, body, body.candidates);
      },
    },
    'MCP ask': {
      domain: 'entities',
      payment: 'free',
      see: async (name) => {
        const body = await mcpTool('ask', { question: `What is the engineering signal for ${name}?` });
        return answerSeen(body.found, body.answer, body.candidates);
      },
    },
    '/api/ask': {
      domain: 'none',
      payment: 'free',
      see: async (name) => {
        const body = await json(await svc.get(`/api/ask?q=${encodeURIComponent(`Tell me about ${name}`)}&limit=1`));
        return { outcome: body.hits.length ? answerSubject(body.hits[0]) : 'none' };
      },
    },
    'POST /api/nlweb': {
      domain: 'none',
      payment: 'free',
      see: async (name) => {
        const body = await json(await post('/api/nlweb', { query: `Tell me about ${name}` }));
        const about = (body.about as string | undefined) ?? 'answered';
        return {
          outcome: body['@type'] === 'Organization' ? body.name : body.numberOfItems === 0 ? 'none' : about,
        };
      },
    },
    'NLWeb /ask': {
      domain: 'none',
      payment: 'free',
      // The first result is the answer about the name asked, when there is one; a miss has no results at all.
      see: async (name) => {
        const body = await json(await post('/ask', { query: `Tell me about ${name}`, streaming: false }));
        const first = (body.results as Json[])[0];
        return { outcome: first === undefined ? 'none' : first.ranking_type === 'answer' ? first.name : 'search hit' };
      },
    },
    'POST /api/agent/deep-signal': {
      domain: 'startups',
      payment: 'credits',
      see: (name) =>
        withBalance(async () => deepSeen(await json(await post('/api/agent/deep-signal', { name }, bearer())))),
    },
    'tool get_deep_signal': {
      domain: 'startups',
      payment: 'credits',
      see: (name) =>
        withBalance(async () =>
          deepSeen(
            await json(await post('/api/agent/call', { name: 'get_deep_signal', arguments: { name } }, bearer())),
          ),
        ),
    },
    'MCP get_deep_signal': {
      domain: 'startups',
      payment: 'credits',
      see: (name) => withBalance(async () => deepSeen(await mcpTool('get_deep_signal', { name }))),
    },
    'A2A startup-signal (deep)': {
      domain: 'startups',
      payment: 'credits',
      see: (name) =>
        withBalance(async () => {
          const data = await a2a({ skill: 'startup-signal', arguments: { name, deep: true } }, key);
          return data ? deepSeen(data) : { outcome: 'error' };
        }),
    },
    'x402 v1 (X-PAYMENT)': { domain: 'startups', payment: 'x402', see: (name) => x402(name, 1) },
    'x402 v2 (PAYMENT-SIGNATURE)': { domain: 'startups', payment: 'x402', see: (name) => x402(name, 2) },
  };

  /** What a surface must do with a case: the case's answer or a miss, its candidates, and no charge for a miss. */
  function expected(row: Case, surface: string): Seen {
    const { domain, payment } = surfaces[surface]!;
    const outcome = row.answers?.(world)[surface] ?? 'none';
    const hit = outcome !== 'none';
    const seen: Seen = { outcome };
    if (domain !== 'none') seen.candidates = hit ? [] : [...row.offers(world)[domain]].sort();
    if (payment === 'credits') Object.assign(seen, { charged: hit ? 1 : 0, balanceChange: hit ? -1 : 0 });
    // x402 charges by settling: one settlement for a hit, none asked for on a miss.
    if (payment === 'x402') {
      Object.assign(seen, { charged: hit ? 1 : 0, status: hit ? 200 : 404, settled: hit ? 1 : 0, receipt: hit });
    }
    return seen;
  }

  /** Every surface the same answer. */
  const everywhere = (name: string) => Object.fromEntries(Object.keys(surfaces).map((s) => [s, name]));

  const cases: Case[] = [
    {
      behaviour: 'an absent real name one letter from a held one (Linde, Linode) is a miss everywhere, offering Linode',
      name: () => 'Linde',
      offers: () => ({ startups: [], entities: ['Linode'] }),
    },
    {
      behaviour: 'a held name with an extra distinctive word (Google Ventures) is a miss everywhere, offering Google',
      name: () => 'Google Ventures',
      offers: () => ({ startups: [], entities: ['Google'] }),
    },
    {
      behaviour:
        'a typo in the distinctive word of a tracked startup is read only by the free lookup and its tools; everywhere else a miss offering it, never charged',
      name: (w) => w.typo.name,
      answers: (w) => ({
        'GET /api/signal': w.typo.of,
        'tool get_startup_signal': w.typo.of,
        'MCP get_startup_signal': w.typo.of,
        'A2A startup-signal': w.typo.of,
      }),
      offers: (w) => ({ startups: [w.typo.of], entities: [w.typo.of] }),
    },
    {
      behaviour:
        'a misspelt generic word after the exact distinctive word is the startup on every surface but the paid ones, which offer it uncharged (the search page offers it too)',
      name: (w) => w.genericTypo.name,
      answers: (w) => {
        const paid = Object.entries(surfaces).filter(([, s]) => s.payment !== 'free');
        return {
          ...everywhere(w.genericTypo.of),
          '/api/answer (deal)': DEMO_DEALS_FAQ,
          'page /search?q=': 'none',
          ...Object.fromEntries(paid.map(([surface]) => [surface, 'none'])),
        };
      },
      offers: (w) => ({ startups: [w.genericTypo.of], entities: [w.genericTypo.of] }),
    },
    {
      behaviour: 'a first name shared by two startups is answered by none of them on any surface, offering both',
      name: (w) => w.prefix.name,
      offers: (w) => ({ startups: w.prefix.of, entities: w.prefix.of }),
    },
    {
      behaviour:
        'a leading "The" before a held alias (The Sun) is another name: a miss everywhere, offering Sun Microsystems',
      name: () => 'The Sun',
      offers: () => ({ startups: [], entities: ['Sun Microsystems'] }),
    },
    {
      behaviour:
        'a held name written as a domain it is not recorded with (Sentry.com) is a miss everywhere, offering Sentry',
      name: () => 'Sentry.com',
      offers: () => ({ startups: [], entities: ['Sentry'] }),
    },
    {
      behaviour:
        'the first word of one tracked startup is a candidate on every surface, the free lookup included, never the answer',
      name: (w) => w.firstWord.name,
      offers: (w) => ({ startups: [w.firstWord.of], entities: [w.firstWord.of] }),
    },
    {
      behaviour:
        'the first word of one tracked startup typed in lower case is a candidate on every surface, never the answer',
      name: (w) => w.firstWord.name.toLowerCase(),
      offers: (w) => ({ startups: [w.firstWord.of], entities: [w.firstWord.of] }),
    },
    {
      behaviour: 'an exact name is the same startup on every surface, charged once where it is paid',
      name: (w) => w.exact,
      answers: (w) => ({ ...everywhere(w.exact), '/api/answer (deal)': DEMO_DEALS_FAQ }),
      offers: () => ({ startups: [], entities: [] }),
    },
  ];

  before(async () => {
    facilitator = await startFakeFacilitator();
    svc = await startTestService({
      X402_PAY_TO: PAY_TO,
      X402_FACILITATOR_URL: facilitator.url,
      X402_RPC_URL: facilitator.rpcUrl,
    });
    key = (await issueKey(svc.service.store.db, { credits: 100, reason: 'test' })).key;
    mcp = new Client({ name: 'names-across-surfaces', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.url}/api/mcp/rpc`), { requestInit: { headers: bearer() } }),
    );
    const signals = await json(await svc.get('/api/signals.json'));
    const typoOf = signals.trending[3].name as string;
    const [typoFirst, ...typoRest] = typoOf.split(' ');
    const last = typoRest.at(-1)?.toLowerCase() ?? '';
    assert.ok(isGenericWord(last) && last.length >= 4 && typoFirst!.length >= 4, `${typoOf}: two typo-able words`);
    const byFirst = new Map<string, string[]>();
    for (const { name } of signals.sectors.flatMap((s: Json) => s.startups)) {
      const first = String(name).split(' ')[0]!;
      byFirst.set(first, [...(byFirst.get(first) ?? []), String(name)]);
    }
    const [prefix, of] = [...byFirst].find(([, all]) => all.length === 2)!;
    const [firstWord, [firstOf]] = [...byFirst].find(([, all]) => all.length === 1)!;
    world = {
      typo: { name: [`${typoFirst}x`, ...typoRest].join(' '), of: typoOf },
      genericTypo: { name: `${typoOf}x`, of: typoOf },
      prefix: { name: prefix, of },
      exact: signals.trending[2].name,
      firstWord: { name: firstWord, of: firstOf! },
    };
  });
  after(async () => {
    await mcp?.close();
    await svc?.close();
    await facilitator?.close();
  });

  for (const row of cases) {
    test(row.behaviour, async () => {
      const name = row.name(world);
      const got: Record<string, Seen> = {};
      const want: Record<string, Seen> = {};
      for (const [surface, { see }] of Object.entries(surfaces)) {
        got[surface] = await see(name);
        want[surface] = expected(row, surface);
      }
      assert.deepEqual(got, want, name);
    });
  }
});
