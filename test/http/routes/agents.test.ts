import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../helpers/service.js';

type Json = Record<string, any>;

describe('agents catalog', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  test('/api/agents.json and /api/v1/agents.json serve the same bytes', async () => {
    const [a, b] = await Promise.all([svc.get('/api/agents.json'), svc.get('/api/v1/agents.json')]);
    assert.equal(a.status, 200);
    assert.equal(await a.text(), await b.text());
  });

  test('lists the eight tools with strict argument schemas', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    assert.deepEqual(
      body.tools.map((t: Json) => t.name),
      [
        'get_trending_startups',
        'search_startups_by_sector',
        'get_startup_signal',
        'get_diligence_dossier',
        'get_signals_summary',
        'get_scout_receipts',
        'get_methodology',
        'get_deep_signal',
      ],
    );
    for (const t of body.tools) assert.equal(t.inputSchema.additionalProperties, false, t.name);
  });

  test('each tool names its REST analog as an absolute URL', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    const signal = body.tools.find((t: Json) => t.name === 'get_startup_signal');
    assert.deepEqual([signal.rest.method, signal.rest.url], ['GET', `${svc.url}/api/signal`]);
  });

  test('the scout tool publishes the username bounds and pattern', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    const scout = body.tools.find((t: Json) => t.name === 'get_scout_receipts');
    const username = scout.inputSchema.properties.github_username;
    assert.deepEqual([username.minLength, username.maxLength, typeof username.pattern], [1, 39, 'string']);
    assert.deepEqual(scout.inputSchema.required, ['github_username']);
  });
});
