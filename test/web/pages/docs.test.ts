import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];
/** Text as the page escapes it inside <pre> (markup characters only). */
const escaped = (text: string) => text.replace(/&/g, '&#38;').replace(/</g, '&#60;').replace(/>/g, '&#62;');

describe('the /docs API reference', () => {
  let svc: TestApp;
  let doc: Json;
  let page: string;
  /** The page's section of each operation, by its anchor (the operationId). */
  let sections: Map<string, string>;

  before(async () => {
    svc = await startTestApp();
    doc = (await (await svc.get('/api/openapi.json')).json()) as Json;
    page = await (await svc.get('/docs')).text();
    sections = new Map(
      [...page.matchAll(/<section class="operation" id="([^"]+)"[\s\S]*?<\/section>/g)].map((m) => [m[1]!, m[0]]),
    );
  });
  after(() => svc.close());

  /** The operations of the document, a /api/v1/ twin of an /api/ original left out (it is noted beside it). */
  const originals = () =>
    Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m])
        .filter((m) => !(path.startsWith('/api/v1/') && doc.paths[`/api/${path.slice(8)}`]?.[m]))
        .map((method) => ({ method, path, op: item[method] as Json })),
    );

  test('shows one section per operation, each with a curl line and an example response', () => {
    const ops = originals();
    assert.equal(sections.size, ops.length);
    for (const { method, path, op } of ops) {
      const section = sections.get(op.operationId);
      assert.ok(section, `${method} ${path}`);
      assert.match(
        section,
        /<pre class="curl" data-copy="the request: [A-Z]+ [^"]+"><code>curl -s/,
        `${method} ${path}: curl`,
      );
      assert.match(section, /class="example"/, `${method} ${path}: example`);
    }
  });

  test("the curl line is the request of the document's example, the example its response", () => {
    const op = doc.paths['/api/signal'].get;
    const company = op.parameters.find((p: Json) => p.name === 'company').example as string;
    const section = sections.get('getSignal')!;
    assert.ok(section.includes(escaped(`${svc.url}/api/signal?${new URLSearchParams({ company })}`)), section);
    const ref = op.responses['200'].content['application/json'].examples.demo.$ref as string;
    const example = doc.components.examples[ref.split('/').pop()!];
    assert.ok(section.includes(escaped(JSON.stringify(example.value, null, 2))), 'the example response');
  });

  test('a path parameter is filled with its example; a paid call sends the key, an MCP call its Accept', () => {
    const market = doc.paths['/api/markets/{slug}'].get.parameters.find((p: Json) => p.name === 'slug').example;
    assert.ok(sections.get('getMarket')!.includes(`${svc.url}/api/markets/${market}`));
    assert.ok(sections.get('postDeepSignal')!.includes('Authorization: Bearer $KEY'));
    assert.ok(sections.get('postMcpRpc')!.includes("-H 'Accept: application/json, text/event-stream'"));
  });

  test('a mirrored /api/v1/ route is noted beside its original, not listed again', () => {
    assert.ok(!sections.has('getSignalsV1'));
    assert.match(sections.get('getSignals')!, /Also at <code>\/api\/v1\/signals\.json<\/code>/);
  });

  test('has side navigation to every operation and to the errors', () => {
    const nav = /<nav class="docs-nav"[\s\S]*?<\/nav>/.exec(page)![0];
    for (const id of sections.keys()) assert.ok(nav.includes(`href="#${id}"`), id);
    assert.ok(nav.includes('href="#errors"'));
    assert.match(
      page,
      /<section id="errors"[\s\S]*"application\/problem\+json"|<section id="errors"[\s\S]*Example problem/,
    );
  });
});
