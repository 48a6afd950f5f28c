import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import {
  agentTools,
  CONTRACT_TOOL_NAMES,
  findTool,
  GITHUB_USERNAME_PATTERN,
  toolJsonSchema,
} from '../../src/agents/registry.js';

describe('agent tool registry', () => {
  test("declares the interface's eight tools first, then the service's own", () => {
    assert.deepEqual(
      agentTools.map((t) => t.name),
      [
        'get_trending_startups',
        'search_startups_by_sector',
        'get_startup_signal',
        'get_diligence_dossier',
        'get_signals_summary',
        'get_scout_receipts',
        'get_methodology',
        'get_deep_signal',
        'get_trending_startups_in_period',
        'search_startups_by_sector_in_period',
        'get_startup_signal_in_period',
        'search_site',
        'ask',
        'get_startup_history',
        'compare_startups',
        'list_periods',
        'get_backtest',
      ],
    );
  });

  test("the interface's eight tools take exactly the interface's arguments, each required", () => {
    const contract: Record<string, string[]> = {
      get_trending_startups: [],
      search_startups_by_sector: ['sector'],
      get_startup_signal: ['name'],
      get_diligence_dossier: ['company'],
      get_signals_summary: [],
      get_scout_receipts: ['github_username'],
      get_methodology: [],
      get_deep_signal: ['name'],
    };
    assert.deepEqual([...CONTRACT_TOOL_NAMES], Object.keys(contract));
    for (const [name, args] of Object.entries(contract)) {
      const schema = toolJsonSchema(findTool(name)!);
      assert.deepEqual(Object.keys(schema.properties as object), args, name);
      assert.deepEqual((schema.required as string[] | undefined) ?? [], args, name);
    }
    assert.equal(findTool('get_trending_startups')!.inputSchema.safeParse({ period: '2026-w07' }).success, false);
  });

  test('read tools take a period as an ISO week slug; the listing ones a limit', () => {
    for (const name of [
      'get_trending_startups_in_period',
      'search_startups_by_sector_in_period',
      'get_startup_signal_in_period',
      'compare_startups',
    ]) {
      const period = (toolJsonSchema(findTool(name)!).properties as Record<string, { pattern?: string }>).period;
      assert.ok(period?.pattern, name);
    }
    for (const name of [
      'get_trending_startups_in_period',
      'search_startups_by_sector_in_period',
      'search_site',
      'get_startup_history',
      'list_periods',
    ]) {
      assert.ok((toolJsonSchema(findTool(name)!).properties as Record<string, unknown>).limit, name);
    }
    const trending = findTool('get_trending_startups_in_period')!.inputSchema;
    assert.equal(trending.safeParse({ period: '2026-w07' }).success, true);
    assert.equal(trending.safeParse({ period: 'last week' }).success, false);
    assert.equal(trending.safeParse({ limit: 21 }).success, false);
  });

  test('compare_startups takes two to five names', () => {
    const tool = findTool('compare_startups')!.inputSchema;
    assert.equal(tool.safeParse({ names: ['a'] }).success, false);
    assert.equal(tool.safeParse({ names: ['a', 'b'] }).success, true);
    assert.equal(tool.safeParse({ names: ['a', 'b', 'c', 'd', 'e', 'f'] }).success, false);
  });

  test('every argument schema is a strict object (no extra properties)', () => {
    for (const t of agentTools) {
      assert.equal(toolJsonSchema(t).additionalProperties, false, t.name);
      assert.equal(t.inputSchema.safeParse({ unexpected: 1 }).success, false, t.name);
    }
  });

  test('sector accepts only the 15 slugs', () => {
    const tool = findTool('search_startups_by_sector')!;
    assert.equal((toolJsonSchema(tool).properties as Record<string, { enum: string[] }>).sector!.enum.length, 15);
    assert.equal(tool.inputSchema.safeParse({ sector: 'robotics' }).success, true);
    assert.equal(tool.inputSchema.safeParse({ sector: 'fintech' }).success, false);
  });

  test('name is required and 1 to 100 characters', () => {
    const tool = findTool('get_startup_signal')!;
    assert.equal(tool.inputSchema.safeParse({}).success, false);
    assert.equal(tool.inputSchema.safeParse({ name: '' }).success, false);
    assert.equal(tool.inputSchema.safeParse({ name: 'x'.repeat(100) }).success, true);
    assert.equal(tool.inputSchema.safeParse({ name: 'x'.repeat(101) }).success, false);
    assert.deepEqual(toolJsonSchema(tool).required, ['name']);
  });

  test('github_username follows the GitHub rule, 1 to 39 characters', () => {
    const tool = findTool('get_scout_receipts')!;
    for (const ok of ['a', 'octo-cat', 'A1-b2-c3', 'x'.repeat(39)]) {
      assert.equal(tool.inputSchema.safeParse({ github_username: ok }).success, true, ok);
    }
    for (const bad of ['', '-octo', 'octo-', 'oc--to', 'octo_cat', 'x'.repeat(40)]) {
      assert.equal(tool.inputSchema.safeParse({ github_username: bad }).success, false, bad);
    }
    assert.equal(GITHUB_USERNAME_PATTERN.test('octo cat'), false);
  });

  test('read tools are read-only and idempotent; the paid tool is neither', () => {
    for (const t of agentTools) {
      const read = t.name !== 'get_deep_signal';
      if (t.name === 'get_scout_receipts') assert.equal(t.annotations.openWorldHint, true);
      assert.equal(t.annotations.readOnlyHint, read, t.name);
      assert.equal(t.annotations.idempotentHint, read, t.name);
      assert.equal(t.paid, !read, t.name);
    }
  });

  test('get_startup_signal maps to GET /api/signal', () => {
    assert.deepEqual((({ method, path }) => ({ method, path }))(findTool('get_startup_signal')!.rest), {
      method: 'GET',
      path: '/api/signal',
    });
  });

  test('every output schema is an object at its root (MCP requires it)', () => {
    for (const t of agentTools) {
      assert.equal((z.toJSONSchema(t.outputSchema, { io: 'output' }) as { type?: string }).type, 'object', t.name);
    }
  });

  test('every tool has a handler', () => {
    for (const t of agentTools) assert.equal(typeof t.handler, 'function', t.name);
  });
});
