import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueKey } from '../../src/payments/keys.js';
import { startTestService, type TestService } from '../helpers/service.js';

// Bodies of many shapes, read field by field.
type Json = Record<string, any>;

/**
 * One table of names, every surface that takes a name (issue 33): the same outcome everywhere. An outcome is the
 * entity a surface answered with, or "none". Only the free lookup of tracked startups (GET /api/signal and its
 * tool) reads a confident typo; every other surface answers real-world facts or charges money and is strict.
 */
describe('names across surfaces', () => {
  let svc: TestService;
  let key: string;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    svc.get(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const json = async (response: Response) => (await response.json()) as Json;

  /** The entity each surface answered `name` with ("none" for a miss). */
  async function outcomes(name: string): Promise<Record<string, string>> {
    const q = encodeURIComponent(name);
    const signal = await json(await svc.get(`/api/signal?company=${q}`));
    const signalTool = await json(await post('/api/agent/call', { name: 'get_startup_signal', arguments: { name } }));
    const dossierGet = await json(await svc.get(`/api/diligence.json?company=${q}`));
    const dossierPost = await json(await post('/api/diligence.json', { company: name }));
    const dossierTool = await json(
      await post('/api/agent/call', { name: 'get_diligence_dossier', arguments: { company: name } }),
    );
    const answer = await json(
      await svc.get(`/api/answer?q=${encodeURIComponent(`What is the engineering signal for ${name}?`)}`),
    );
    const deal = await json(await svc.get(`/api/answer?q=${encodeURIComponent(`Who acquired ${name}?`)}`));
    const ask = await json(await svc.get(`/api/ask?q=${encodeURIComponent(`Tell me about ${name}`)}&limit=1`));
    const nlweb = await json(await post('/api/nlweb', { query: `Tell me about ${name}` }));
    const deep = await json(await post('/api/agent/deep-signal', { name }, { authorization: `Bearer ${key}` }));
    const deepTool = await json(
      await post(
        '/api/agent/call',
        { name: 'get_deep_signal', arguments: { name } },
        { authorization: `Bearer ${key}` },
      ),
    );
    const a2aSignal = await a2a({ skill: 'startup-signal', arguments: { name } });
    const a2aDeep = await a2a({ skill: 'startup-signal', arguments: { name, deep: true } }, key);
    const about = (hit: Json | undefined) => (hit?.about as string | undefined) ?? (hit ? 'answered' : 'none');
    return {
      'GET /api/signal': signal.found === false ? 'none' : signal.name,
      'tool get_startup_signal': signalTool.found ? signalTool.startup.name : 'none',
      'GET /api/diligence.json': dossierGet.dossier.found ? dossierGet.dossier.entity : 'none',
      'POST /api/diligence.json': dossierPost.dossier.found ? dossierPost.dossier.entity : 'none',
      'tool get_diligence_dossier': dossierTool.dossier.found ? dossierTool.dossier.entity : 'none',
      '/api/answer (signal)': answer.found === false ? 'none' : answerSubject(answer),
      '/api/answer (deal)': deal.found === false ? 'none' : answerSubject(deal),
      '/api/ask': ask.hits.length ? answerSubject(ask.hits[0]) : 'none',
      'POST /api/nlweb':
        nlweb['@type'] === 'Organization' ? nlweb.name : nlweb.numberOfItems === 0 ? 'none' : about(nlweb),
      'POST /api/agent/deep-signal': deep.found === false ? 'none' : deep.name,
      'tool get_deep_signal': deepTool.found === false ? 'none' : deepTool.name,
      'A2A startup-signal': a2aSignal?.found ? a2aSignal.startup.name : 'none',
      'A2A startup-signal (deep)': a2aDeep?.found ? a2aDeep.name : 'none',
    };
  }

  /** The result of an A2A data-part request (protocol 0.3 JSON-RPC): the completed task's data, or undefined. */
  async function a2a(request: Json, bearer?: string): Promise<Json | undefined> {
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
        bearer ? { authorization: `Bearer ${bearer}` } : {},
      ),
    );
    const task = reply.result as Json;
    if (task?.status?.state !== 'completed') return undefined;
    return task.artifacts?.[0]?.parts?.find((p: Json) => p.kind === 'data')?.data as Json | undefined;
  }

  /** The company an answer is about: a startup's answer names it in its question, a deal its entity. */
  function answerSubject(hit: Json): string {
    const question = String(hit.question);
    const startup = /signal for (.+)\?$/.exec(question)?.[1];
    return startup ?? question;
  }

  before(async () => {
    svc = await startTestService();
    key = (await issueKey(svc.service.store.db, { credits: 100, reason: 'test' })).key;
  });
  after(async () => {
    await svc?.close();
  });

  const strictSurfaces = (all: Record<string, string>) =>
    Object.fromEntries(Object.entries(all).filter(([surface]) => !/signal$|get_startup_signal/.test(surface)));

  test('an absent real name one letter from a held one (Linde, Linode) is a miss everywhere', async () => {
    const all = await outcomes('Linde');
    assert.deepEqual(
      Object.values(all),
      Object.values(all).map(() => 'none'),
      JSON.stringify(all),
    );
  });

  test('a held name with an extra distinctive word (Google Ventures) is a miss everywhere', async () => {
    const all = await outcomes('Google Ventures');
    assert.deepEqual(
      Object.values(all),
      Object.values(all).map(() => 'none'),
      JSON.stringify(all),
    );
  });

  test('a typo of a tracked startup is read only by the free lookup and its tool; everywhere else a miss', async () => {
    const signals = await json(await svc.get('/api/signals.json'));
    const name = signals.trending[3].name as string;
    const all = await outcomes(`${name}x`);
    assert.equal(all['GET /api/signal'], name);
    assert.equal(all['tool get_startup_signal'], name);
    assert.equal(all['A2A startup-signal'], name);
    const strict = strictSurfaces(all);
    assert.deepEqual(
      Object.values(strict),
      Object.values(strict).map(() => 'none'),
      JSON.stringify(all),
    );
  });

  test('a first name shared by two startups is answered by none of them, on every surface', async () => {
    const signals = await json(await svc.get('/api/signals.json'));
    const count = new Map<string, number>();
    for (const { name } of signals.sectors.flatMap((s: Json) => s.startups)) {
      const first = String(name).split(' ')[0]!;
      count.set(first, (count.get(first) ?? 0) + 1);
    }
    const first = [...count].find(([, n]) => n === 2)![0];
    const all = await outcomes(first);
    assert.deepEqual(
      Object.values(all),
      Object.values(all).map(() => 'none'),
      JSON.stringify(all),
    );
  });

  test('an exact name is the same startup on every surface', async () => {
    const signals = await json(await svc.get('/api/signals.json'));
    const name = signals.trending[2].name as string;
    const all = await outcomes(name);
    for (const surface of [
      'GET /api/signal',
      'tool get_startup_signal',
      'POST /api/agent/deep-signal',
      'tool get_deep_signal',
      '/api/answer (signal)',
      'A2A startup-signal',
      'A2A startup-signal (deep)',
    ])
      assert.equal(all[surface], name, surface);
  });
});
