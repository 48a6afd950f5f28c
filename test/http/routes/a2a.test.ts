import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentCard, Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { issueKey } from '../../../src/payments/keys.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

function userMessage(parts: Part[], messageId = `m-${Math.random().toString(36).slice(2)}`): Message {
  return {
    messageId,
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

const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** The data part of a completed task's artifact. */
function resultOf(task: Task): Json {
  return task.artifacts[0]!.parts.find((p) => p.content?.$case === 'data')!.content!.value as Json;
}

/** The data part of a task's status message (a failed or rejected task's reason). */
function statusDataOf(task: Task): Json {
  return task.status!.message!.parts.find((p) => p.content?.$case === 'data')!.content!.value as Json;
}

describe('A2A at /api/a2a', () => {
  let svc: TestApp;
  let client: Client;
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
  const send03 = (parts: Json[], headers: Record<string, string> = {}, messageId = 'm1') =>
    rpc(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { kind: 'message', messageId, role: 'user', parts } },
      },
      headers,
    );
  /** Sends through the SDK client (protocol 1.0) and returns the task it answers. */
  const ask = async (parts: Part[], headers: Record<string, string> = {}, messageId?: string): Promise<Task> => {
    const reply = await client.sendMessage(
      { tenant: '', message: userMessage(parts, messageId), configuration: undefined, metadata: undefined },
      { serviceParameters: headers },
    );
    assert.ok('status' in reply, 'every answer is a task');
    return reply as Task;
  };
  const skill = (id: string, args: Json = {}) => [data({ skill: id, arguments: args })];

  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod, listen: true });
    client = await new ClientFactory().createFromUrl(svc.url);
    signals = (await (await svc.get('/api/signals.json')).json()) as Json;
  });
  after(() => svc.close());

  test('the SDK client discovers the card and gets a completed task for a message (protocol 1.0)', async () => {
    const task = await ask([text('Which startups are trending this week?')]);
    assert.equal(task.status!.state, TaskState.TASK_STATE_COMPLETED);
    assert.deepEqual(resultOf(task).startups, signals.trending);
    const summary = task.artifacts[0]!.parts.find((p) => p.content?.$case === 'text')!.content!.value as string;
    assert.ok(summary.includes(signals.trending[0].name), summary);
    assert.equal(task.metadata!.skill, 'trending');
  });

  test('a task can be fetched again with the SDK client (GetTask)', async () => {
    const task = await ask([text('How are the signals computed?')]);
    const fetched = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    assert.equal(fetched.id, task.id);
    assert.equal(fetched.status!.state, TaskState.TASK_STATE_COMPLETED);
    assert.deepEqual(resultOf(fetched), resultOf(task));
  });

  test('the agent card declares protocol 1.0 and 0.3 and the spec’s five skills', async () => {
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

  test('the card declares the Bearer key in both generations, required only as an option of startup-signal', async () => {
    const card = (await (await svc.get('/.well-known/agent-card.json')).json()) as Json;
    const scheme = card.securitySchemes.creditPackKey;
    assert.deepEqual([scheme.httpAuthSecurityScheme.scheme, scheme.type, scheme.scheme], ['Bearer', 'http', 'bearer']);
    assert.equal(card.securityRequirements, undefined, 'no card-wide requirement: the free skills need no key');
    const keyed = card.skills.filter((s: Json) => s.securityRequirements).map((s: Json) => s.id);
    assert.deepEqual(keyed, ['startup-signal']);
    const skill = card.skills.find((s: Json) => s.id === 'startup-signal');
    assert.deepEqual(skill.securityRequirements, [{ schemes: {} }, { schemes: { creditPackKey: { list: [] } } }]);
    assert.deepEqual(skill.security, [{}, { creditPackKey: [] }]);
    // The SDK's 1.0 card type reads its form of the scheme from the same document.
    const parsed = AgentCard.fromJSON(card);
    assert.equal(parsed.securitySchemes.creditPackKey?.scheme?.$case, 'httpAuthSecurityScheme');
  });

  test('a v0.3 message/send without A2A-Version picks the sector skill from the text and answers a task', async () => {
    const body = await send03([{ kind: 'text', text: 'Show me the top robotics startups' }]);
    assert.equal(body.result.kind, 'task');
    assert.equal(body.result.status.state, 'completed');
    assert.equal(body.result.metadata.skill, 'sector');
    const { labels, ...result } = body.result.artifacts[0].parts.find((p: Json) => p.kind === 'data').data;
    assert.deepEqual(
      result,
      signals.sectors.find((s: Json) => s.slug === 'robotics'),
    );
  });

  test('tasks/get (v0.3) returns the task a message created', async () => {
    const sent = await send03([{ kind: 'text', text: 'Give me an overview' }]);
    const got = await rpc({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: sent.result.id } });
    assert.equal(got.result.id, sent.result.id);
    assert.equal(got.result.status.state, 'completed');
    assert.equal(got.result.metadata.skill, 'summary');
  });

  test('a data part names the skill and its arguments', async () => {
    const name = signals.trending[2].name as string;
    const expected = (await (await svc.get(`/api/signal?company=${encodeURIComponent(name)}`)).json()) as Json;
    const { signalStrength, signalEvidence, signalFinding, stageSource, evidenceDetails, ...result } = resultOf(
      await ask(skill('startup-signal', { name })),
    );
    assert.deepEqual(result, { found: true, nameMatch: 'exact', startup: expected });
  });

  test('a startup named in plain text is looked up', async () => {
    const name = signals.trending[1].name as string;
    const task = await ask([text(`What is the signal for ${name}?`)]);
    assert.equal(task.metadata!.skill, 'startup-signal');
    assert.equal(resultOf(task).startup.name, name);
  });

  test('a bare startup name in plain text is looked up', async () => {
    const name = signals.trending[3].name as string;
    const task = await ask([text(name)]);
    assert.equal(task.metadata!.skill, 'startup-signal');
    assert.equal(resultOf(task).startup.name, name);
  });

  test('methodology and summary questions reach their skills', async () => {
    assert.equal((await ask([text('How are the signals computed?')])).metadata!.skill, 'methodology');
    assert.equal((await ask([text('Give me an overview')])).metadata!.skill, 'summary');
  });

  test('an invalid argument is a failed task naming the argument', async () => {
    const task = await ask(skill('sector', { sector: 'fintech' }));
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
    assert.equal(task.artifacts.length, 0);
    const { error } = statusDataOf(task);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid-arguments');
    assert.deepEqual(
      error.errors.map((e: Json) => e.location),
      ['arguments.sector'],
    );
    const reason = task.status!.message!.parts[0]!.content!.value as string;
    assert.match(reason, /arguments\.sector/);
  });

  test('a v0.3 client sees the failure as a failed task too', async () => {
    const body = await send03([{ kind: 'data', data: { skill: 'sector', arguments: { sector: 'fintech' } } }]);
    assert.equal(body.result.kind, 'task');
    assert.equal(body.result.status.state, 'failed');
    assert.equal(body.result.metadata.error.errors[0].location, 'arguments.sector');
  });

  test('an unknown argument is a failed task naming it', async () => {
    const task = await ask(skill('trending', { colour: 'blue' }));
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
    assert.match(statusDataOf(task).error.detail, /"colour"/);
  });

  test('an unknown skill is a failed task listing the skills', async () => {
    const task = await ask(skill('weather'));
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
    assert.match(statusDataOf(task).error.detail, /trending, sector, startup-signal, summary, methodology/);
  });

  test('an unrelated request is rejected as such, not looked up as a startup name', async () => {
    const task = await ask([text('bake me a cake')]);
    assert.equal(task.status!.state, TaskState.TASK_STATE_REJECTED);
    const reason = task.status!.message!.parts[0]!.content!.value as string;
    assert.doesNotMatch(reason, /startup matches/i);
    assert.match(reason, /does not know how to help/);
    assert.deepEqual(
      statusDataOf(task).skills.map((s: Json) => s.id),
      ['trending', 'sector', 'startup-signal', 'summary', 'methodology'],
    );
  });

  test('a question in plain text is answered with its citations (the answer service)', async () => {
    const task = await ask([text('Do credits expire?')]);
    assert.equal(task.status!.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(task.metadata!.capability, 'answer');
    const result = resultOf(task);
    assert.equal(result.found, true);
    assert.equal(typeof result.answer.answer, 'string');
    assert.ok(Array.isArray(result.answer.facts));
  });

  test('trending takes a stored period and a limit', async () => {
    const periods = resultOf(await ask(skill('summary', { periods: true }))).periods as Json[];
    assert.ok(periods.length > 1);
    const earlier = periods[1]!.slug as string;
    const result = resultOf(await ask(skill('trending', { period: earlier, limit: 3 })));
    assert.equal(result.period.slug, earlier);
    assert.equal(result.startups.length, 3);
    const current = resultOf(await ask(skill('trending', { limit: 2 })));
    assert.deepEqual(current.startups, signals.trending.slice(0, 2));
  });

  test('an unknown period is a failed task naming the argument', async () => {
    const task = await ask(skill('trending', { period: '1999-w01' }));
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
    assert.equal(statusDataOf(task).error.errors[0].location, 'arguments.period');
  });

  test('a sector of an earlier period is ranked from that period’s rows', async () => {
    const periods = resultOf(await ask(skill('summary', { periods: true }))).periods as Json[];
    const result = resultOf(await ask(skill('sector', { sector: 'robotics', period: periods[2]!.slug, limit: 2 })));
    assert.equal(result.period.slug, periods[2]!.slug);
    assert.ok(result.startups.length <= 2);
    assert.equal(result.slug, 'robotics');
  });

  test('the summary skill lists the stored periods, newest first', async () => {
    const result = resultOf(await ask(skill('summary', { periods: true })));
    assert.equal(result.current, signals.meta.period.slug);
    assert.equal(result.periods[0].slug, signals.meta.period.slug);
  });

  test('the summary skill searches the site', async () => {
    const name = signals.trending[0].name as string;
    const result = resultOf(await ask(skill('summary', { search: name, type: 'startup', limit: 3 })));
    const expected = (await (
      await svc.get(`/api/llms-search?q=${encodeURIComponent(name)}&type=startup&limit=3`)
    ).json()) as Json;
    assert.deepEqual(result.hits, expected.hits);
  });

  test('a startup’s history over the stored weeks', async () => {
    const name = signals.trending[0].name as string;
    const result = resultOf(await ask(skill('startup-signal', { name, history: true })));
    assert.equal(result.found, true);
    assert.ok(result.periods.length > 1);
    assert.equal(result.periods.at(-1).period, signals.meta.period.slug);
  });

  test('history matches names strictly: a typo in a distinctive word is a miss with candidates, never another company', async () => {
    const [first, ...rest] = (signals.trending[0].name as string).split(' ');
    const typo = [`${first!.slice(0, -1)}${first!.endsWith('x') ? 'y' : 'x'}`, ...rest].join(' ');
    const task = await ask(skill('startup-signal', { name: typo, history: true }));
    assert.equal(task.status!.state, TaskState.TASK_STATE_COMPLETED);
    const result = resultOf(task);
    assert.equal(result.found, false);
    assert.equal(result.periods, undefined);
  });

  test('compare answers each startup side by side and names the misses', async () => {
    const [a, b] = [signals.trending[0].name, signals.trending[1].name] as string[];
    const result = resultOf(await ask(skill('startup-signal', { name: a!, compare: [b!, 'Zzqx Nonexistent'] })));
    assert.deepEqual(
      result.startups.map((s: Json) => s.name),
      [a, b],
    );
    assert.deepEqual(
      result.misses.map((m: Json) => m.name),
      ['Zzqx Nonexistent'],
    );
  });

  test('two extensions at once are a failed task', async () => {
    const task = await ask(skill('startup-signal', { name: 'x', history: true, deep: true }));
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
    assert.match(statusDataOf(task).error.detail, /at most one of/);
  });

  describe('the paid Deep Signal (startup-signal with deep: true)', () => {
    const deep = (name: string) => skill('startup-signal', { name, deep: true });

    test('without a key: a failed task, 401, with the purchase URL', async () => {
      const task = await ask(deep(signals.trending[0].name));
      assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
      const { error } = statusDataOf(task);
      assert.equal(error.status, 401);
      assert.equal(error.purchaseUrl, `${svc.url}/agents/credits`);
    });

    test('a malformed Authorization header is refused by the one Bearer rule (401)', async () => {
      const task = await ask(deep(signals.trending[0].name), { authorization: 'Bearer  two spaces' });
      assert.equal(statusDataOf(task).error.code, 'credentials-malformed');
    });

    test('with a credit key: the Deep Signal, one credit charged, the balance in the metadata', async () => {
      const { key } = await issueKey(svc.service.store.db, { credits: 2, reason: 'test' });
      const name = signals.trending[0].name as string;
      const task = await ask(deep(name), { authorization: `Bearer ${key}` });
      assert.equal(task.status!.state, TaskState.TASK_STATE_COMPLETED);
      const result = resultOf(task);
      assert.equal(result.name, name);
      assert.equal(result.charged, 1);
      assert.equal(task.metadata!.creditsBalance, 1);
      const credits = (await (
        await fetch(`${svc.url}/api/account/credits`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as Json;
      assert.equal(credits.balance, 1);
    });

    test('the same message sent twice is charged once (its messageId is the idempotency key)', async () => {
      const { key } = await issueKey(svc.service.store.db, { credits: 5, reason: 'test' });
      const name = signals.trending[1].name as string;
      const first = await ask(deep(name), { authorization: `Bearer ${key}` }, 'same-message');
      const second = await ask(deep(name), { authorization: `Bearer ${key}` }, 'same-message');
      assert.equal(first.metadata!.creditsBalance, 4);
      assert.equal(second.metadata!.creditsBalance, 4);
      assert.equal(second.metadata!.replayed, true);
      assert.deepEqual(resultOf(second), resultOf(first));
    });

    test('no credit left: a failed task, 402, with the balance and the purchase URL', async () => {
      const { key } = await issueKey(svc.service.store.db, { credits: 0, reason: 'test' });
      const task = await ask(deep(signals.trending[0].name), { authorization: `Bearer ${key}` });
      assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
      const { error } = statusDataOf(task);
      assert.deepEqual([error.status, error.balance, error.purchaseUrl], [402, 0, `${svc.url}/agents/credits`]);
    });

    test('an untracked startup is free: found false, charged 0', async () => {
      const { key } = await issueKey(svc.service.store.db, { credits: 1, reason: 'test' });
      const task = await ask(deep('Zzqx Nonexistent Labs'), { authorization: `Bearer ${key}` });
      assert.deepEqual([resultOf(task).found, resultOf(task).charged], [false, 0]);
      assert.equal(task.metadata!.creditsBalance, 1);
    });
  });

  test('free skills answer whatever the Authorization header holds (only a paid call authenticates)', async () => {
    const body = await send03([{ kind: 'text', text: 'overview' }], { authorization: 'Bearer  not one token' });
    assert.equal(body.result.metadata.skill, 'summary');
    assert.equal(body.result.status.state, 'completed');
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

  test('tasks/get of an unknown task is −32001', async () => {
    assert.equal(
      (await rpc({ jsonrpc: '2.0', id: 6, method: 'tasks/get', params: { id: 'none' } })).error.code,
      -32001,
    );
  });

  test('listing tasks is not offered (it would show one caller’s tasks to another)', async () => {
    const body = await rpc({ jsonrpc: '2.0', id: 8, method: 'ListTasks', params: {} }, { 'A2A-Version': '1.0' });
    assert.ok(body.error, JSON.stringify(body));
    assert.equal(body.result, undefined);
  });

  test('the card declares streaming', async () => {
    const card = (await (await svc.get('/.well-known/agent-card.json')).json()) as Json;
    assert.equal(card.capabilities.streaming, true);
  });

  test('the SDK streaming client (1.0) gets the task working, its artifact, then its final status', async () => {
    const events = [];
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: userMessage([text('Which startups are trending this week?')]),
      configuration: undefined,
      metadata: undefined,
    })) {
      events.push(event.payload!);
    }
    assert.deepEqual(
      events.map((e) => e.$case),
      ['task', 'artifactUpdate', 'statusUpdate'],
    );
    const [task, artifact, status] = events.map((e) => e.value) as [Task, Json, Json];
    assert.equal(task.status!.state, TaskState.TASK_STATE_WORKING);
    assert.deepEqual(
      artifact.artifact.parts.find((p: Part) => p.content?.$case === 'data').content.value.startups,
      signals.trending,
    );
    assert.equal(status.status.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(status.metadata.skill, 'trending');
  });

  test('a streamed task is the task message/send answers: GetTask returns it completed with its artifact', async () => {
    let id = '';
    let streamed: Json | undefined;
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: userMessage([text('How are the signals computed?')]),
      configuration: undefined,
      metadata: undefined,
    })) {
      if (event.payload?.$case === 'task') id = event.payload.value.id;
      if (event.payload?.$case === 'artifactUpdate') streamed = event.payload.value.artifact as Json;
    }
    const fetched = await client.getTask({ tenant: '', id, historyLength: undefined });
    assert.equal(fetched.status!.state, TaskState.TASK_STATE_COMPLETED);
    assert.deepEqual(fetched.artifacts[0], streamed);
  });

  test('v0.3 message/stream answers Server-Sent Events, one JSON-RPC response each, the last one final', async () => {
    const response = await fetch(`${svc.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'message/stream',
        params: {
          message: {
            kind: 'message',
            messageId: 'm-stream',
            role: 'user',
            parts: [{ kind: 'text', text: 'Give me an overview' }],
          },
        },
      }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter((chunk) => chunk.startsWith('data: '))
      .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as Json);
    assert.ok(events.every((e) => e.jsonrpc === '2.0' && e.id === 5));
    assert.deepEqual(
      events.map((e) => e.result.kind),
      ['task', 'artifact-update', 'status-update'],
    );
    assert.equal(events.at(-1)!.result.status.state, 'completed');
    assert.equal(events.at(-1)!.result.final, true);
  });

  test('an unsupported A2A-Version is −32009', async () => {
    const body = await rpc({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } }, { 'A2A-Version': '9.9' });
    assert.equal(body.error.code, -32009);
  });
});
