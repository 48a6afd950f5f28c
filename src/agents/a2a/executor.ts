import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  STATE_HEADERS_KEY,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type RequestHeaders,
} from '@a2a-js/sdk/server';
import { ServiceError } from '../../domain/errors.js';
import { idempotencyKeyFor, type NotForMe, type SkillAnswer, type SkillRunner } from './answers.js';
import { A2A_SKILLS, chooseSkillFromText, skillById, type SkillChoice } from './skills.js';

/**
 * Every message is answered by one task, published as it is produced (the task, working; the artifact; the final
 * status), finished when the call returns (the answers are immediate), and kept so that tasks/get (GetTask) can
 * fetch it again:
 * - completed: an artifact with a plain-English text part and the structured result as a data part; the status
 *   message repeats the text;
 * - failed: the request could not be answered (bad or unknown arguments, unknown skill, a missing or invalid credit
 *   key, no credit left, …): the status message says why in a text part and carries `{error: {status, code, title,
 *   detail, …}}` in a data part, as the REST problem body would;
 * - rejected: the message asks for something this agent does not do ("bake me a cake"): the status message says so
 *   and lists the skills.
 */
function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** The skill a message asks for: from its first data part naming one, else from its text; or why none. */
export function chooseSkill(parts: readonly Part[]): SkillChoice | { error: ServiceError } | { text: string } {
  for (const part of parts) {
    if (part.content?.$case !== 'data') continue;
    const value = part.content.value as { skill?: unknown; tool?: unknown; arguments?: unknown } | undefined;
    const id = value?.skill ?? value?.tool;
    if (typeof id !== 'string') continue;
    const skill = skillById(id);
    if (!skill) {
      const known = A2A_SKILLS.map((s) => s.id).join(', ');
      return {
        error: new ServiceError(
          'unknown-skill',
          { skill: id, known: A2A_SKILLS.map((s) => s.id) },
          {
            extensions: { errors: [{ location: 'skill', message: `must be one of ${known}` }] },
          },
        ),
      };
    }
    return { skill, args: value?.arguments ?? {} };
  }
  const text = parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join(' ')
    .trim();
  if (!text) {
    return {
      error: new ServiceError('empty-message'),
    };
  }
  return chooseSkillFromText(text) ?? { text };
}

function headersOf(requestContext: RequestContext): RequestHeaders | undefined {
  return requestContext.context?.state.get(STATE_HEADERS_KEY) as RequestHeaders | undefined;
}

function header(requestContext: RequestContext, name: string): string | undefined {
  const value = headersOf(requestContext)?.[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The caller's `Authorization` header, from the request headers the transport put in the call context. */
export function authorizationOf(requestContext: RequestContext): string | undefined {
  return header(requestContext, 'authorization');
}

/** A service error as the `error` object of a failed task: the REST problem body's fields. */
export function errorObject(err: ServiceError): Record<string, unknown> {
  return {
    status: err.status,
    code: err.code,
    title: err.title,
    detail: err.detail ?? err.title,
    ...err.extensions,
    ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
  };
}

export interface ExecutorDeps {
  /** Answers a skill (throws a ServiceError when it cannot). */
  run: SkillRunner;
  /** What a text that names no skill asks for: a skill, or why the agent does not do it. */
  readText(text: string): SkillChoice | NotForMe;
}

export class SignalAgentExecutor implements AgentExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  async execute(requestContext: RequestContext, eventBus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = requestContext;
    const message = (parts: Part[], metadata?: Record<string, unknown>): Message => ({
      messageId: randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts,
      metadata,
      extensions: [],
      referenceTaskIds: [],
    });
    // The task as it is produced, event by event (message/stream sends each as it is published; message/send
    // answers the task they add up to): the task, working; its artifact once the answer is ready; its final status.
    eventBus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [requestContext.userMessage],
        metadata: {},
      }),
    );
    const finish = (
      state: TaskState,
      statusParts: Part[],
      metadata: Record<string, unknown>,
      artifacts: Artifact[] = [],
    ) => {
      for (const artifact of artifacts) {
        eventBus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact,
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      }
      eventBus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message: message(statusParts), timestamp: new Date().toISOString() },
          metadata,
        }),
      );
      eventBus.finished();
    };
    const fail = (err: ServiceError, metadata: Record<string, unknown> = {}) => {
      const error = errorObject(err);
      finish(TaskState.TASK_STATE_FAILED, [textPart(String(error['detail'])), dataPart({ error })], {
        ...metadata,
        error,
      });
    };

    let choice = chooseSkill(requestContext.userMessage.parts);
    if ('error' in choice) return fail(choice.error);
    if ('text' in choice) {
      const read = this.deps.readText(choice.text);
      if ('reject' in read) {
        const skills = A2A_SKILLS.map((s) => ({ id: s.id, name: s.tool.title, examples: s.examples }));
        const offer = `I answer questions about startup engineering signals: ${A2A_SKILLS.map((s) => s.tool.title.toLowerCase()).join(', ')}.`;
        return finish(
          TaskState.TASK_STATE_REJECTED,
          [
            textPart(`${read.reject} ${offer}`),
            dataPart({ reason: read.reject, skills, suggestions: read.suggestions }),
          ],
          { rejected: 'not-a-supported-request' },
        );
      }
      choice = read;
    }
    const { skill } = choice;
    const about = { skill: skill.id };
    let answer: SkillAnswer;
    try {
      answer = await this.deps.run(choice, {
        authorization: authorizationOf(requestContext),
        idempotencyKey: idempotencyKeyFor(
          header(requestContext, 'idempotency-key'),
          requestContext.userMessage.messageId,
        ),
      });
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      return fail(err, about);
    }
    const metadata = { ...about, capability: answer.capability, ...answer.metadata };
    finish(TaskState.TASK_STATE_COMPLETED, [textPart(answer.text)], metadata, [
      {
        artifactId: 'result',
        name: skill.id,
        description: `The ${skill.id} skill's answer (${answer.capability}).`,
        parts: [textPart(answer.text), dataPart(answer.data)],
        metadata: undefined,
        extensions: [],
      },
    ]);
  }

  async cancelTask(): Promise<void> {
    // Every task is finished when its message is answered: there is never a running task to cancel.
  }
}
