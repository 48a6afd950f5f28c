import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { anthropicTools, geminiTools, openAiStrictSchema, openAiTools } from '../../src/agents/function-calling.js';
import { agentTools, findTool } from '../../src/agents/registry.js';

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
    });
    assert.deepEqual(schema.properties, { name: { type: 'string', description: 'A name. 1 to 100 characters.' } });
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
