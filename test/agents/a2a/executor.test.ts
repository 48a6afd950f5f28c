import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import { defaultServerCallContextBuilder, RequestContext, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { authorizationOf, SignalAgentExecutor, type ExecutorDeps } from '../../../src/agents/a2a/executor.js';
import type { SkillCall } from '../../../src/agents/a2a/answers.js';
import { ServiceError } from '../../../src/domain/errors.js';

type Json = Record<string, any>;

const dataPart = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});
const textPart = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

function requestWith(headers: Record<string, string>, parts?: Part[], messageId = 'm1'): RequestContext {
  const message: Message = {
    messageId,
    contextId: 'c1',
    taskId: '',
    role: Role.ROLE_USER,
    parts: parts ?? [dataPart({ skill: 'startup-signal', arguments: { name: 'Acme' } })],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  const context = defaultServerCallContextBuilder({ extensions: undefined, user: undefined, headers });
  return new RequestContext({ message } as never, 't1', 'c1', context);
}

/** Runs the executor once and returns the task its events add up to (the first task, its artifacts, its status). */
async function answer(deps: Partial<ExecutorDeps>, request: RequestContext): Promise<Task> {
  const published: { kind: string; data: Json }[] = [];
  let finished = false;
  const bus = {
    publish: (event: { kind: string; data: Json }) => published.push(event),
    finished: () => (finished = true),
  } as unknown as ExecutionEventBus;
  const executor = new SignalAgentExecutor({
    run: async () => ({ text: 'ok', data: { found: false }, capability: 'get_startup_signal' }),
    readText: () => ({ reject: 'Not mine.', suggestions: [] }),
    ...deps,
  });
  await executor.execute(request, bus);
  assert.ok(finished);
  const [first, ...updates] = published;
  assert.equal(first!.kind, 'task', 'the task comes first');
  assert.equal(updates.at(-1)!.kind, 'statusUpdate', 'its final status comes last');
  const task = structuredClone(first!.data) as Task;
  for (const { kind, data } of updates) {
    if (kind === 'artifactUpdate') task.artifacts.push(data.artifact);
    if (kind === 'statusUpdate') {
      task.status = data.status;
      task.metadata = { ...task.metadata, ...data.metadata };
    }
  }
  return task;
}

describe('A2A executor', () => {
  test('reads the caller’s Authorization header from the call context', () => {
    assert.equal(authorizationOf(requestWith({ authorization: 'Bearer abc' })), 'Bearer abc');
    assert.equal(authorizationOf(requestWith({})), undefined);
  });

  test('hands the Authorization header to the skill (authenticate runs there)', async () => {
    const seen: SkillCall[] = [];
    await answer(
      {
        run: async (_choice, call) => {
          seen.push(call);
          return { text: 'ok', data: {}, capability: 'x' };
        },
      },
      requestWith({ authorization: 'bearer sigsk_x' }),
    );
    assert.equal(seen[0]!.authorization, 'bearer sigsk_x');
  });

  test('a paid call’s idempotency key is the Idempotency-Key header, else one derived from the message id', async () => {
    const keys: (string | undefined)[] = [];
    const run: ExecutorDeps['run'] = async (_choice, call) => {
      keys.push(call.idempotencyKey);
      return { text: 'ok', data: {}, capability: 'x' };
    };
    await answer({ run }, requestWith({ 'idempotency-key': 'k-1' }));
    await answer({ run }, requestWith({}, undefined, 'msg-a'));
    await answer({ run }, requestWith({}, undefined, 'msg-a'));
    await answer({ run }, requestWith({}, undefined, 'msg-b'));
    assert.equal(keys[0], 'k-1');
    assert.equal(keys[1], keys[2]);
    assert.notEqual(keys[1], keys[3]);
  });

  test('an answer is a completed task with the text and the data in one artifact', async () => {
    const task = await answer({}, requestWith({}));
    assert.equal(task.id, 't1');
    assert.equal(task.status!.state, TaskState.TASK_STATE_COMPLETED);
    assert.deepEqual(
      task.artifacts[0]!.parts.map((p) => p.content?.$case),
      ['text', 'data'],
    );
    assert.deepEqual(
      task.history.map((m) => m.messageId),
      ['m1'],
    );
  });

  test('an answer is published as produced: the task working, its artifact, then the completed status', async () => {
    const kinds: string[] = [];
    let firstState: TaskState | undefined;
    const bus = {
      publish: (event: { kind: string; data: Json }) => {
        kinds.push(event.kind);
        if (event.kind === 'task') firstState = event.data.status.state;
      },
      finished: () => {},
    } as unknown as ExecutionEventBus;
    await new SignalAgentExecutor({
      run: async () => ({ text: 'ok', data: {}, capability: 'x' }),
      readText: () => ({ reject: 'Not mine.', suggestions: [] }),
    }).execute(requestWith({}), bus);
    assert.deepEqual(kinds, ['task', 'artifactUpdate', 'statusUpdate']);
    assert.equal(firstState, TaskState.TASK_STATE_WORKING);
  });

  test('a service error is a failed task: the detail as text, the problem fields as data', async () => {
    const task = await answer(
      {
        run: async () => {
          throw ServiceError.relay('credentials-invalid', 'The credit-pack key is not valid.');
        },
      },
      requestWith({}),
    );
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
    const [text, data] = task.status!.message!.parts;
    assert.equal(text!.content!.value, 'The credit-pack key is not valid.');
    const { error } = data!.content!.value as Json;
    assert.deepEqual(
      { status: error.status, code: error.code, detail: error.detail },
      { status: 401, code: 'credentials-invalid', detail: 'The credit-pack key is not valid.' },
    );
    assert.deepEqual((task.metadata as Json).error, error);
  });

  test('a text that is no skill’s is a rejected task, saying why', async () => {
    const task = await answer({}, requestWith({}, [textPart('bake me a cake')]));
    assert.equal(task.status!.state, TaskState.TASK_STATE_REJECTED);
    assert.match(task.status!.message!.parts[0]!.content!.value as string, /^Not mine\./);
  });

  test('an empty message is a failed task, not an exception', async () => {
    const task = await answer({}, requestWith({}, [textPart('   ')]));
    assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
  });
});
