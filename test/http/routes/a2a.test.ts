import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Role, type Message, type Part } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { startTestService, type TestService } from '../../helpers/service.js';

type Json = Record<string, any>;

function userMessage(parts: Part[]): Message {
  return {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

describe('A2A at /api/a2a', () => {
  let svc: TestService;
  let signals: Json;
  const rpc = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${svc.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    assert.equal(response.status, 200, 'JSON-RPC answers travel with HTTP 200');
    return (await response.json()) as Json;
  };
  const send03 = (parts: Json[]) =>
    rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts } },
    });

  before(async () => {
    svc = await startTestService();
    signals = (await (await svc.get('/api/signals.json')).json()) as Json;
  });
  after(() => svc.close());

  test('the SDK client discovers the card and gets an answer to a message (protocol 1.0)', async () => {
    const client = await new ClientFactory().createFromUrl(svc.url);
    const reply = await client.sendMessage({
      tenant: '',
      message: userMessage([text('Which startups are trending this week?')]),
      configuration: undefined,
      metadata: undefined,
    });
    assert.ok('messageId' in reply, 'an immediate answer is a message');
    const message = reply as Message;
    assert.equal(message.role, Role.ROLE_AGENT);
    const data = message.parts.find((p) => p.content?.$case === 'data')!.content!.value as Json;
    assert.deepEqual(data.startups, signals.trending);
    const summary = message.parts.find((p) => p.content?.$case === 'text')!.content!.value as string;
    assert.ok(summary.includes(signals.trending[0].name), summary);
  });

  test('the agent card declares protocol 1.0 and 0.3 and five skills', async () => {
    const card = (await (await svc.get('/.well-known/agent-card.json')).json()) as Json;
    assert.deepEqual(
      card.supportedInterfaces.map((i: Json) => [i.protocolBinding, i.protocolVersion, i.url]),
      [
        ['JSONRPC', '1.0', `${svc.url}/api/a2a`],
        ['JSONRPC', '0.3', `${svc.url}/api/a2a`],
      ],
    );
    assert.deepEqual(
      [card.protocolVersion, card.url, card.preferredTransport],
      ['0.3.0', `${svc.url}/api/a2a`, 'JSONRPC'],
    );
    assert.deepEqual(
      card.skills.map((s: Json) => s.id),
      ['trending', 'sector', 'startup-signal', 'summary', 'methodology'],
    );
  });

  test('a v0.3 message/send without A2A-Version picks the sector skill from the text', async () => {
    const body = await send03([{ kind: 'text', text: 'Show me the top robotics startups' }]);
    assert.equal(body.result.kind, 'message');
    assert.equal(body.result.role, 'agent');
    assert.deepEqual(body.result.metadata, { skill: 'sector', tool: 'search_startups_by_sector' });
    const { labels, ...data } = body.result.parts.find((p: Json) => p.kind === 'data').data;
    assert.deepEqual(
      data,
      signals.sectors.find((s: Json) => s.slug === 'robotics'),
    );
  });

  test('a data part names the skill and its arguments', async () => {
    const name = signals.trending[2].name as string;
    const expected = (await (await svc.get(`/api/signal?company=${encodeURIComponent(name)}`)).json()) as Json;
    const body = await send03([{ kind: 'data', data: { skill: 'startup-signal', arguments: { name } } }]);
    const { signalStrength, signalEvidence, ...data } = body.result.parts.find((p: Json) => p.kind === 'data').data;
    assert.deepEqual(data, { found: true, nameMatch: 'exact', startup: expected });
  });

  test('a startup named in plain text is looked up', async () => {
    const name = signals.trending[1].name as string;
    const body = await send03([{ kind: 'text', text: `What is the signal for ${name}?` }]);
    assert.equal(body.result.metadata.skill, 'startup-signal');
    assert.equal(body.result.parts.find((p: Json) => p.kind === 'data').data.startup.name, name);
  });

  test('methodology and summary questions reach their skills', async () => {
    assert.equal(
      (await send03([{ kind: 'text', text: 'How are the signals computed?' }])).result.metadata.skill,
      'methodology',
    );
    assert.equal((await send03([{ kind: 'text', text: 'Give me an overview' }])).result.metadata.skill, 'summary');
  });

  test('bad skill arguments are answered with the reason, not a server error', async () => {
    const body = await send03([{ kind: 'data', data: { skill: 'sector', arguments: { sector: 'fintech' } } }]);
    assert.equal(body.result.metadata.error.status, 400);
    assert.match(body.result.parts[0].text, /sector/);
  });

  test('free skills answer whatever the Authorization header holds (only a paid tool authenticates)', async () => {
    const body = await rpc(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'overview' }] },
        },
      },
      { authorization: 'Bearer  not one token' },
    );
    assert.equal(body.result.metadata.skill, 'summary');
  });

  test('malformed JSON is −32700', async () => {
    assert.equal((await rpc('{"jsonrpc":')).error.code, -32700);
  });

  test('a request that is not JSON-RPC 2.0 is −32600', async () => {
    assert.equal((await rpc({ jsonrpc: '1.0', id: 3, method: 'message/send' })).error.code, -32600);
    assert.equal((await rpc([{ jsonrpc: '2.0', id: 3, method: 'message/send' }])).error.code, -32600);
    assert.equal((await rpc({ jsonrpc: '2.0', id: 3 })).error.code, -32600);
  });

  test('an unknown method is −32601 in both vocabularies', async () => {
    assert.equal((await rpc({ jsonrpc: '2.0', id: 4, method: 'tasks/nope', params: {} })).error.code, -32601);
    const v1 = await rpc({ jsonrpc: '2.0', id: 5, method: 'Nope', params: {} }, { 'A2A-Version': '1.0' });
    assert.deepEqual([v1.id, v1.error.code], [5, -32601]);
  });

  test('tasks/get of an unknown task is −32001 (answers create no tasks)', async () => {
    assert.equal(
      (await rpc({ jsonrpc: '2.0', id: 6, method: 'tasks/get', params: { id: 'none' } })).error.code,
      -32001,
    );
  });

  test('an unsupported A2A-Version is −32009', async () => {
    const body = await rpc({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } }, { 'A2A-Version': '9.9' });
    assert.equal(body.error.code, -32009);
  });
});
