import { randomUUID } from 'node:crypto';
import { Role, type Message, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  STATE_HEADERS_KEY,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type RequestHeaders,
} from '@a2a-js/sdk/server';
import { ServiceError } from '../../domain/errors.js';
import type { ToolInvoker } from '../invoke.js';
import { chooseSkillFromText, describeResult, skillById, type SkillChoice } from './skills.js';

/**
 * Answers every message at once with one agent message: a plain-English text part and the tool's structured result
 * as a data part. No task is created (the answers are immediate), so nothing accumulates in the task store.
 */
function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** The skill a message asks for: from its first data part naming one, else from its text. */
export function chooseSkill(parts: readonly Part[]): SkillChoice | { error: string } {
  for (const part of parts) {
    if (part.content?.$case !== 'data') continue;
    const value = part.content.value as { skill?: unknown; tool?: unknown; arguments?: unknown } | undefined;
    const id = value?.skill ?? value?.tool;
    if (typeof id !== 'string') continue;
    const skill = skillById(id);
    if (!skill) return { error: `Unknown skill ${JSON.stringify(id.slice(0, 64))}.` };
    return { skill, args: value?.arguments ?? {} };
  }
  const text = parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join(' ')
    .trim();
  if (!text) return { error: 'Send a text part with a question, or a data part {"skill": …, "arguments": {…}}.' };
  return chooseSkillFromText(text);
}

/** The caller's `Authorization` header, from the request headers the transport put in the call context. */
export function authorizationOf(requestContext: RequestContext): string | undefined {
  const headers = requestContext.context?.state.get(STATE_HEADERS_KEY) as RequestHeaders | undefined;
  const value = headers?.authorization;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A service error as A2A: the detail as the text part, and `{status, detail}` under `error` in the message
 * metadata (an answered message, not a JSON-RPC error: the request itself was fine).
 */
function errorParts(err: ServiceError): { parts: Part[]; error: { status: number; detail: string } } {
  const detail = err.detail ?? err.title;
  return { parts: [textPart(detail)], error: { status: err.status, detail } };
}

export class SignalAgentExecutor implements AgentExecutor {
  /** `invokerFor` answers tools for a caller with this `Authorization` header (only a paid tool reads it). */
  constructor(private readonly invokerFor: (authorization: string | undefined) => ToolInvoker) {}

  async execute(requestContext: RequestContext, eventBus: ExecutionEventBus): Promise<void> {
    const choice = chooseSkill(requestContext.userMessage.parts);
    let parts: Part[];
    let metadata: Record<string, unknown>;
    if ('error' in choice) {
      parts = [textPart(choice.error)];
      metadata = { error: { status: 400, detail: choice.error } };
    } else {
      try {
        const invoke = this.invokerFor(authorizationOf(requestContext));
        const result = await invoke(choice.skill.tool.name, choice.args);
        parts = [textPart(describeResult(choice.skill.id, result)), dataPart(result)];
        metadata = { skill: choice.skill.id, tool: choice.skill.tool.name };
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        const answer = errorParts(err);
        parts = answer.parts;
        metadata = { skill: choice.skill.id, tool: choice.skill.tool.name, error: answer.error };
      }
    }
    const reply: Message = {
      messageId: randomUUID(),
      contextId: requestContext.contextId,
      taskId: '',
      role: Role.ROLE_AGENT,
      parts,
      metadata,
      extensions: [],
      referenceTaskIds: [],
    };
    eventBus.publish(AgentEvent.message(reply));
    eventBus.finished();
  }

  async cancelTask(): Promise<void> {
    // Every answer is immediate: there is never a running task to cancel.
  }
}
