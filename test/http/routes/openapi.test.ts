import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

describe('OpenAPI document', () => {
  let svc: TestApp;
  let doc: Json;
  let raw: string;
  before(async () => {
    svc = await startTestApp();
    raw = await (await svc.get('/api/openapi.json')).text();
    doc = JSON.parse(raw);
  });
  after(() => svc.close());

  test('is valid OpenAPI 3.1 under a real validator', async () => {
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  });

  test('declares OpenAPI 3.1.0, interface version 1.4.0 and the CC BY 4.0 licence', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.4.0');
    assert.deepEqual(doc.info.license, { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' });
  });

  test('/api/v1/openapi.json serves the same document', async () => {
    assert.equal(await (await svc.get('/api/v1/openapi.json')).text(), raw);
  });

  test('component names follow the spec', () => {
    for (const name of ['SignalsResponse', 'Startup', 'Sector', 'Meta', 'Problem', 'DatasetRecord']) {
      assert.ok(doc.components.schemas[name], name);
    }
  });

  test('is generated from the routes: every served path is documented with its methods', () => {
    const expected: Record<string, string> = {
      '/api/signals.json': 'get',
      '/api/v1/signals.json': 'get',
      '/api/signals.csv': 'get',
      '/api/signal': 'get',
      '/api/dataset.jsonl': 'get',
      '/api/v1/dataset.jsonl': 'get',
      '/api/openapi.json': 'get',
      '/api/v1/openapi.json': 'get',
      '/healthz': 'get',
      '/readyz': 'get',
    };
    for (const [path, method] of Object.entries(expected)) assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
  });

  test('documents the company parameter bounds of /api/signal', () => {
    const param = doc.paths['/api/signal'].get.parameters.find((p: Json) => p.name === 'company');
    assert.equal(param.in, 'query');
    assert.equal(param.required, true);
    assert.equal(param.schema.minLength, 1);
    assert.equal(param.schema.maxLength, 80);
  });

  test('the Startup component enumerates stages and signal types', () => {
    const json = JSON.stringify(doc.components.schemas);
    for (const v of ['Pre-seed', 'Series A/B', 'Growth', 'Engineering hiring burst', 'Framework migration'])
      assert.ok(json.includes(v), v);
  });
});
