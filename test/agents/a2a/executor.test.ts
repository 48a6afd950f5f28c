import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Role, type Message } from '@a2a-js/sdk';
import { defaultServerCallContextBuilder, RequestContext, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { authorizationOf, SignalAgentExecutor } from '../../../src/agents/a2a/executor.js';
import type { ToolInvoker } from '../../../src/agents/invoke.js';
import { ServiceError } from '../../../src/domain/errors.js';

type Json = Record<string, any>;

function requestWith(headers: Record<string, string>): RequestContext {
  const message: Message = {
    messageId: 'm1',
    contextId: 'c1',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'data', value: { skill: 'startup-signal', arguments: { name: 'Acme' } } },
        metadata: undefined,
        filename: '',
        mediaType: 'application/json',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  const context = defaultServerCallContextBuilder({ extensions: undefined, user: undefined, headers });
  return new RequestContext({ message } as never, '', 'c1', context);
}

/** Runs the executor once and returns the message it published. */
async function answer(executor: SignalAgentExecutor, request: RequestContext): Promise<Message> {
  const published: Message[] = [];
  const bus = {
    publish: (event: { kind: string; data: Message }) => published.push(event.data),
    finished: () => {},
  } as unknown as ExecutionEventBus;
  await executor.execute(request, bus);
  return published[0]!;
}

describe('A2A executor', () => {
  test('reads the caller’s Authorization header from the call context', () => {
    assert.equal(authorizationOf(requestWith({ authorization: 'Bearer abc' })), 'Bearer abc');
    assert.equal(authorizationOf(requestWith({})), undefined);
  });

  test('hands the Authorization header to the invoker of the call (authenticate runs there)', async () => {
    const seen: (string | undefined)[] = [];
    const executor = new SignalAgentExecutor((authorization) => {
      seen.push(authorization);
      return (async () => ({ found: false })) as ToolInvoker;
    });
    await answer(executor, requestWith({ authorization: 'bearer sigsk_x' }));
    assert.deepEqual(seen, ['bearer sigsk_x']);
  });

  test('a service error becomes the text part and {status, detail} under error in the metadata', async () => {
    const executor = new SignalAgentExecutor(() => async () => {
      throw new ServiceError('credentials-invalid', 'The credit-pack key is not valid.');
    });
    const message = await answer(executor, requestWith({}));
    assert.deepEqual((message.metadata as Json).error, { status: 401, detail: 'The credit-pack key is not valid.' });
    assert.equal(message.parts[0]!.content?.$case, 'text');
  });
});
