import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionCall as GeminiFunctionCall, FunctionDeclaration, Part as GeminiPart } from '@google/genai';
import type OpenAI from 'openai';
import {
  anthropicTools,
  geminiTools,
  openAiResponsesTools,
  openAiStrictSchema,
  openAiTools,
  toolCallOf,
} from '../../src/agents/function-calling.js';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { alertAgentTools } from '../../src/agents/alert-tools.js';
import { runTool } from '../../src/agents/invoke.js';
import { agentTools, findTool, toolJsonSchema, type ToolEnv } from '../../src/agents/registry.js';
import { ServiceError } from '../../src/domain/errors.js';

type Json = Record<string, any>;

/**
 * Schema lints written from each provider's documented rules, so a registry change that one of them would refuse
 * fails here rather than in a user's request.
 */
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
// OpenAI strict mode: the keywords of its supported subset (no minLength / maxLength, no look-around regexes).
const OPENAI_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'pattern',
  'format',
  'items',
  'anyOf',
  '$defs',
  '$ref',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
]);

/** Every schema node, the root included. */
function* nodes(schema: Json): Generator<Json> {
  yield schema;
  for (const child of Object.values((schema.properties ?? {}) as Record<string, Json>)) yield* nodes(child);
  if (schema.items && typeof schema.items === 'object') yield* nodes(schema.items as Json);
  for (const child of (schema.anyOf ?? []) as Json[]) yield* nodes(child);
}

function lintOpenAi(tool: Json): string[] {
  const problems: string[] = [];
  if (tool.type !== 'function') problems.push('type must be "function"');
  const fn = tool.function as Json;
  if (!OPENAI_NAME.test(fn.name)) problems.push(`bad name ${fn.name}`);
  if (fn.strict !== true) problems.push('strict must be true');
  if (fn.parameters.type !== 'object') problems.push('parameters must be an object schema');
  for (const node of nodes(fn.parameters)) {
    for (const key of Object.keys(node)) if (!OPENAI_KEYWORDS.has(key)) problems.push(`unsupported keyword ${key}`);
    if (node.type === 'object') {
      if (node.additionalProperties !== false) problems.push('every object needs additionalProperties: false');
      const keys = Object.keys(node.properties ?? {});
      const required = (node.required ?? []) as string[];
      if (keys.length !== required.length || keys.some((k) => !required.includes(k))) {
        problems.push('every property must be required');
      }
    }
    if (typeof node.pattern === 'string' && /\(\?[=!<]/.test(node.pattern)) problems.push('look-around in pattern');
  }
  return problems;
}

function lintAnthropic(tool: Json): string[] {
  const problems: string[] = [];
  if (!ANTHROPIC_NAME.test(tool.name)) problems.push(`bad name ${tool.name}`);
  if (typeof tool.description !== 'string' || tool.description.length === 0) problems.push('needs a description');
  if (tool.input_schema?.type !== 'object') problems.push('input_schema must be an object schema');
  if (tool.input_schema?.additionalProperties !== false) problems.push('input_schema must refuse extra properties');
  return problems;
}

function lintGemini(declaration: Json): string[] {
  const problems: string[] = [];
  if (!GEMINI_NAME.test(declaration.name)) problems.push(`bad name ${declaration.name}`);
  if ('parameters' in declaration) problems.push('use parametersJsonSchema, not parameters');
  const schema = declaration.parametersJsonSchema as Json;
  if (schema?.type !== 'object') problems.push('parametersJsonSchema must be an object schema');
  if ('$schema' in schema) problems.push('no $schema');
  if (schema.additionalProperties !== false) problems.push('parametersJsonSchema must refuse extra properties');
  return problems;
}

describe('function-calling definitions', () => {
  test('OpenAI: every tool passes the strict-mode lint', () => {
    const { tools } = openAiTools() as { tools: Json[] };
    assert.equal(tools.length, agentTools.length);
    for (const tool of tools) assert.deepEqual(lintOpenAi(tool), [], tool.function.name);
  });

  test("every tool, the alert tools included, is taken by the openai package's strict-schema conversion unchanged", () => {
    for (const t of [...agentTools, ...alertAgentTools]) {
      const strict = openAiStrictSchema(toolJsonSchema(t));
      // The SDK's converter throws on what strict mode cannot represent, and rewrites what it would have to change.
      assert.deepEqual(toStrictJsonSchema(structuredClone(strict) as never), strict, t.name);
      assert.deepEqual(
        lintOpenAi({ type: 'function', function: { name: t.name, strict: true, parameters: strict } }),
        [],
        t.name,
      );
    }
  });

  test('Anthropic: every tool passes the lint', () => {
    const { tools } = anthropicTools() as { tools: Json[] };
    assert.equal(tools.length, agentTools.length);
    for (const tool of tools) assert.deepEqual(lintAnthropic(tool), [], tool.name);
  });

  test('Gemini: one tool of functionDeclarations, every declaration passes the lint', () => {
    const { tools } = geminiTools() as { tools: Json[] };
    assert.equal(tools.length, 1);
    assert.equal(tools[0]!.functionDeclarations.length, agentTools.length);
    for (const d of tools[0]!.functionDeclarations) assert.deepEqual(lintGemini(d), [], d.name);
  });

  test('the lints catch what the providers refuse', () => {
    const loose = {
      type: 'function',
      function: {
        name: 'x',
        strict: true,
        parameters: { type: 'object', properties: { a: { type: 'string', minLength: 1 } } },
      },
    };
    assert.deepEqual(
      lintOpenAi(loose).sort(),
      [
        'every object needs additionalProperties: false',
        'every property must be required',
        'unsupported keyword minLength',
      ].sort(),
    );
    assert.deepEqual(lintGemini({ name: '1bad', parameters: {}, parametersJsonSchema: { type: 'object' } }).length, 3);
  });

  test('OpenAI strict mode keeps string bounds in the description', () => {
    const schema = openAiStrictSchema({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 100, description: 'A name.' } },
      required: ['name'],
    });
    assert.deepEqual(schema.properties, { name: { type: 'string', description: 'A name. 1 to 100 characters.' } });
  });

  test('OpenAI strict mode lists an optional argument as required and nullable', () => {
    const schema = openAiStrictSchema({
      type: 'object',
      properties: { period: { type: 'string', pattern: '^x$' }, sector: { type: 'string', enum: ['a', 'b'] } },
    });
    assert.deepEqual(schema.required, ['period', 'sector']);
    assert.deepEqual(schema.properties, {
      period: { type: ['string', 'null'], pattern: '^x$' },
      sector: { type: ['string', 'null'], enum: ['a', 'b', null] },
    });
  });

  test('the server reads an optional argument sent as null (OpenAI strict mode) as absent', async () => {
    const trending = findTool('get_trending_startups_in_period')!;
    const calls: unknown[] = [];
    const probe = {
      ...trending,
      handler: (args: unknown) => {
        calls.push(args);
        throw ServiceError.relay('internal', 'stop');
      },
    };
    await assert.rejects(runTool(probe, { period: null, limit: null }, {} as ToolEnv), /stop/);
    assert.deepEqual(calls, [{}]);
    await assert.rejects(runTool(probe, { period: null, extra: null }, {} as ToolEnv), /extra/);
  });

  test('OpenAI Responses: the flat function tool, with the strict-mode schema of Chat Completions', () => {
    const { tools } = openAiResponsesTools() as { tools: Json[] };
    const chat = (openAiTools() as { tools: Json[] }).tools;
    assert.equal(tools.length, agentTools.length);
    for (const [i, t] of tools.entries()) {
      // Typed as the SDK's own Responses tool: a field the API does not know would not compile.
      const typed: OpenAI.Responses.FunctionTool = {
        type: 'function',
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        strict: t.strict,
      };
      assert.deepEqual(t, typed);
      assert.deepEqual(t.parameters, chat[i]!.function.parameters);
      assert.deepEqual(lintOpenAi({ type: t.type, function: t }), [], t.name);
    }
  });

  test('every definition is self-contained (no $ref a provider would have to resolve)', () => {
    for (const tools of [openAiTools(), openAiResponsesTools(), anthropicTools(), geminiTools()]) {
      assert.doesNotMatch(JSON.stringify(tools), /"\$ref"|"\$defs"/);
    }
  });

  test('every definition fits the SDK types of OpenAI Chat, Anthropic and Gemini', () => {
    for (const t of (openAiTools() as { tools: Json[] }).tools) {
      const typed: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
        type: 'function',
        function: {
          name: t.function.name,
          description: t.function.description,
          parameters: t.function.parameters,
          strict: t.function.strict,
        },
      };
      assert.deepEqual(t, typed);
    }
    for (const t of (anthropicTools() as { tools: Json[] }).tools) {
      const typed: Anthropic.Tool = { name: t.name, description: t.description, input_schema: t.input_schema };
      assert.deepEqual(t, typed);
    }
    for (const d of (geminiTools() as { tools: Json[] }).tools[0]!.functionDeclarations as Json[]) {
      const typed: FunctionDeclaration = {
        name: d.name,
        description: d.description,
        parametersJsonSchema: d.parametersJsonSchema,
      };
      assert.deepEqual(d, typed);
    }
  });

  test('the username pattern the providers see is the rule the server enforces', () => {
    const { tools } = openAiTools() as { tools: Json[] };
    const scout = tools.find((t) => t.function.name === 'get_scout_receipts')!;
    const pattern = new RegExp(scout.function.parameters.properties.github_username.pattern);
    const server = findTool('get_scout_receipts')!.inputSchema;
    for (const name of ['octo', 'octo-cat', 'a1-b2', '-octo', 'octo-', 'oc--to', 'octo_cat']) {
      assert.equal(pattern.test(name), server.safeParse({ github_username: name }).success, name);
    }
  });
});

describe('tool calls as the providers emit them', () => {
  const args = { name: 'Acme' };

  test('plain {name, arguments}, arguments an object or a JSON string', () => {
    assert.deepEqual(toolCallOf({ name: 'get_startup_signal', arguments: args }), {
      shape: 'plain',
      name: 'get_startup_signal',
      args,
    });
    assert.equal(toolCallOf({ name: 'get_startup_signal', arguments: '{"name":"Acme"}' }).args, '{"name":"Acme"}');
  });

  test('an OpenAI Chat Completions tool_calls item', () => {
    const item: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = {
      id: 'call_1',
      type: 'function',
      function: { name: 'get_startup_signal', arguments: JSON.stringify(args) },
    };
    assert.deepEqual(toolCallOf(item), {
      shape: 'openai-chat',
      name: 'get_startup_signal',
      args: JSON.stringify(args),
      callId: 'call_1',
    });
  });

  test('an OpenAI Responses function_call item, with the fields the API adds', () => {
    const item: OpenAI.Responses.ResponseFunctionToolCall = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_2',
      name: 'get_startup_signal',
      arguments: JSON.stringify(args),
      status: 'completed',
    };
    assert.deepEqual(toolCallOf(item), {
      shape: 'openai-responses',
      name: 'get_startup_signal',
      args: JSON.stringify(args),
      callId: 'call_2',
    });
  });

  test('an Anthropic tool_use block (with its caller) and the bare {name, input}', () => {
    const block: Anthropic.ToolUseBlock = {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'get_startup_signal',
      input: args,
      caller: { type: 'direct' },
    };
    assert.deepEqual(toolCallOf(block), {
      shape: 'anthropic',
      name: 'get_startup_signal',
      args,
      callId: 'toolu_1',
    });
    assert.deepEqual(toolCallOf({ name: 'get_startup_signal', input: args }), {
      shape: 'anthropic',
      name: 'get_startup_signal',
      args,
      callId: undefined,
    });
  });

  test('a Gemini functionCall part (with a thought signature) and the bare {name, args}', () => {
    const call: GeminiFunctionCall = { name: 'get_startup_signal', args, id: 'g1' };
    const part: GeminiPart = { functionCall: call, thoughtSignature: 'c2ln' };
    assert.deepEqual(toolCallOf(part), { shape: 'gemini', name: 'get_startup_signal', args, callId: 'g1' });
    assert.deepEqual(toolCallOf({ name: 'get_startup_signal', args }), {
      shape: 'gemini',
      name: 'get_startup_signal',
      args,
      callId: undefined,
    });
  });

  test('anything else is a 400 that lists the shapes', () => {
    for (const body of [
      [],
      'x',
      null,
      { arguments: {} },
      { name: 'get_methodology', extra: 1 },
      { type: 'tool_use' },
    ]) {
      assert.throws(
        () => toolCallOf(body),
        (err: unknown) => err instanceof ServiceError && err.status === 400 && 'callShapes' in err.extensions,
        JSON.stringify(body),
      );
    }
  });
});
