import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];

/** Hosts an example may name besides reserved ones: standards, registries and sources the service itself cites. */
const PUBLIC_HOSTS = new Set([
  'creativecommons.org',
  'www.w3.org',
  'schema.org',
  'static.modelcontextprotocol.io',
  'registry.npmjs.org',
  'mastodon.social',
  'github.com',
]);
/** RFC 2606 / RFC 6761 names for documentation and tests. */
const RESERVED = /(^|\.)(example|test|invalid|localhost|example\.com|example\.org|example\.net)$/;

interface Operation {
  method: string;
  path: string;
  op: Json;
}

describe('OpenAPI examples', () => {
  let svc: TestApp;
  let doc: Json;
  let operations: Operation[];
  let ajv: Ajv2020;

  /** A media type's example, its `$ref` into components.examples resolved. */
  const exampleOf = (media: Json | undefined): { value: unknown } | undefined => {
    const first = Object.values((media?.examples ?? {}) as Record<string, Json>)[0];
    if (!first) return media?.example === undefined ? undefined : { value: media.example };
    const ref = first.$ref as string | undefined;
    return (ref ? doc.components.examples[ref.replace('#/components/examples/', '')] : first) as { value: unknown };
  };
  /** Validates `value` against a schema of the document (its `#/components/...` references resolved). */
  const check = (schema: Json, value: unknown, where: string) => {
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
    assert.ok(validate(value), `${where}: ${ajv.errorsText(validate.errors)}`);
  };

  before(async () => {
    svc = await startTestApp();
    doc = (await (await svc.get('/api/openapi.json')).json()) as Json;
    operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })),
    );
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    // The document's `format: uri` comes from z.url(), which takes what the WHATWG URL parser takes (a templated
    // `{username}` path too): checked the same way here.
    ajv.addFormat('uri', { type: 'string', validate: (s: string) => URL.canParse(s) });
    ajv.addSchema({ $id: 'doc', components: doc.components });
  });
  after(() => svc.close());

  test('every operation has an example for its success response', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations) {
      const [status, response] = Object.entries(op.responses as Record<string, Json>).find(([s]) => /^2/.test(s))!;
      for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
        if (type === 'text/event-stream') continue; // the stream of the same answer as its JSON twin
        if (!exampleOf(media)) missing.push(`${method.toUpperCase()} ${path} ${status} ${type}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every problem response has a problem document as its example', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const media = response.content?.['application/problem+json'];
        if (!media) continue;
        const example = exampleOf(media)?.value as Json | undefined;
        if (example?.status !== Number(status)) missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every response example validates against its response schema', () => {
    let checked = 0;
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
          const example = exampleOf(media);
          if (!example) continue;
          check(media.schema, example.value, `${method.toUpperCase()} ${path} ${status} ${type}`);
          checked++;
        }
      }
    }
    assert.ok(checked > operations.length, `${checked} examples checked`);
  });

  test('every request example validates against its parameter or body schema', () => {
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of (op.parameters ?? []) as Json[]) {
        if (p.example !== undefined) check(p.schema, p.example, `${where} ${p.in} ${p.name}`);
      }
      const body = op.requestBody?.content?.['application/json'];
      if (body?.example !== undefined) check(body.schema, body.example, `${where} body`);
    }
  });

  test('every path parameter has an example, so the curl line is a request that answers', () => {
    const missing = operations.flatMap(({ method, path, op }) =>
      ((op.parameters ?? []) as Json[])
        .filter((p) => (p.in === 'path' || p.required) && p.in !== 'header' && p.example === undefined)
        .map((p) => `${method.toUpperCase()} ${path} ${p.name}`),
    );
    assert.deepEqual(missing, []);
  });

  test('examples name only reserved hosts and the standards the service links to, and carry no key', () => {
    const text = JSON.stringify([doc.components.examples, operations.map((o) => [o.op.parameters, o.op.requestBody])]);
    const hosts = new Set([...text.matchAll(/https?:\/\/([A-Za-z0-9.-]+)/g)].map((m) => m[1]!.toLowerCase()));
    const other = [...hosts].filter((h) => !RESERVED.test(h) && !PUBLIC_HOSTS.has(h));
    assert.deepEqual(other, []);
    const keys = new Set(text.match(/sigsk_[A-Za-z0-9_-]+/g) ?? []);
    assert.deepEqual([...keys], ['sigsk_EXAMPLExxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx']);
    assert.doesNotMatch(text, /whsec_(?!EXAMPLE)/);
  });

  test('examples use the base URL of the server that serves the document', () => {
    const text = JSON.stringify(doc.components.examples);
    assert.ok(text.includes(svc.url), svc.url);
    assert.ok(!text.includes('signal-service.example'), 'the capture host is replaced');
  });
});
