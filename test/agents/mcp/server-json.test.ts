import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildServerJson, registryName, SERVER_JSON_PATH } from '../../../src/agents/mcp/server-json.js';
import { startTestService, type TestService } from '../../helpers/service.js';

type Json = Record<string, any>;

/**
 * The registry's own schema (fixtures/server.schema.json: the validation keywords of the schema the registry
 * publishes in its repository, with its source URL and commit), and beside it the publishing requirements that the
 * schema only describes: an exact version (no range, not "latest"), a known package registry, and packages with
 * exactly the registry's package fields.
 */
const REGISTRY_SCHEMA = JSON.parse(
  readFileSync(new URL('./fixtures/server.schema.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

function schemaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(REGISTRY_SCHEMA);
}

const input = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    value: { type: 'string' },
    default: { type: 'string' },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    variables: { type: 'object' },
  },
};
const exactVersion = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  not: { pattern: '^(latest|[\\^~><=].*|.*\\.[x*](\\..*)?)$' },
};
const REGISTRY_RULES = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { type: 'string', format: 'uri', pattern: '^https://static\\.modelcontextprotocol\\.io/schemas/' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: exactVersion,
    websiteUrl: { type: 'string', format: 'uri' },
    icons: {
      type: 'array',
      items: { type: 'object', required: ['src'], properties: { src: { type: 'string', format: 'uri' } } },
    },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://|\\{)' },
          headers: { type: 'array', items: { ...input, required: ['name'] } },
        },
      },
    },
    packages: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['registryType', 'identifier', 'transport'],
        properties: {
          registryType: { enum: ['npm', 'pypi', 'oci', 'nuget', 'mcpb'] },
          registryBaseUrl: { type: 'string', format: 'uri' },
          identifier: { type: 'string', minLength: 1 },
          version: exactVersion,
          fileSha256: { type: 'string', pattern: '^[a-f0-9]{64}$' },
          runtimeHint: { type: 'string' },
          transport: {
            type: 'object',
            required: ['type'],
            properties: { type: { enum: ['stdio', 'streamable-http', 'sse'] } },
          },
          runtimeArguments: { type: 'array' },
          packageArguments: { type: 'array' },
          environmentVariables: { type: 'array', items: { ...input, required: ['name'] } },
        },
      },
    },
    _meta: { type: 'object', propertyNames: { enum: ['io.modelcontextprotocol.registry/publisher-provided'] } },
  },
};

function validator(schema: object) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

describe('server.json for the MCP Registry', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc?.close());

  test('is served at the well-known path and satisfies the registry rules', async () => {
    const response = await svc.get(SERVER_JSON_PATH);
    assert.equal(response.status, 200);
    const document = (await response.json()) as Json;
    const validate = validator(REGISTRY_RULES);
    assert.equal(validate(document), true, JSON.stringify(validate.errors));
  });

  test('satisfies the registry’s published server.json schema', async () => {
    const document = (await (await svc.get(SERVER_JSON_PATH)).json()) as Json;
    const validate = schemaValidator();
    assert.equal(validate(document), true, JSON.stringify(validate.errors));
  });

  test('the registry’s schema refuses what it describes as invalid', () => {
    const validate = schemaValidator();
    const good = buildServerJson('https://signals.example.com', '1.2.3');
    assert.equal(validate(good), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...good, description: 'x'.repeat(101) }), false);
    assert.equal(validate({ ...good, remotes: [{ ...good.remotes[0], url: 'signals.example.com/mcp' }] }), false);
    assert.equal(validate({ ...good, icons: [{ ...good.icons[0], mimeType: 'image/gif' }] }), false);
    assert.equal(validate({ ...good, packages: [{ ...good.packages[0], version: 'latest' }] }), false);
  });

  test('names the remote endpoint and the signal-mcp package, with the key as a secret', async () => {
    const document = (await (await svc.get(SERVER_JSON_PATH)).json()) as Json;
    assert.deepEqual(
      document.remotes.map((r: Json) => [r.type, r.url]),
      [['streamable-http', `${svc.url}/mcp`]],
    );
    assert.equal(document.remotes[0].headers[0].isSecret, true);
    const [pkg] = document.packages;
    assert.deepEqual([pkg.registryType, pkg.identifier, pkg.transport.type], ['npm', 'signal-service', 'stdio']);
    assert.deepEqual(
      pkg.environmentVariables.map((v: Json) => [v.name, v.isSecret ?? false]),
      [
        ['SIGNAL_BASE_URL', false],
        ['SIGNAL_API_KEY', true],
      ],
    );
  });

  test('the rules refuse what the registry refuses', () => {
    const validate = validator(REGISTRY_RULES);
    const good = buildServerJson('https://signals.example.com', '1.2.3');
    assert.equal(validate(good), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...good, name: 'no-slash' }), false);
    assert.equal(validate({ ...good, description: 'x'.repeat(101) }), false);
    assert.equal(validate({ ...good, packages: [{ ...good.packages[0], version: '^1.2.3' }] }), false);
    assert.equal(validate({ ...good, packages: [{ ...good.packages[0], version: 'latest' }] }), false);
    assert.equal(validate({ ...good, packages: [{ ...good.packages[0], extra: true }] }), false);
  });

  test('the name is the reverse-DNS of the deployment host', () => {
    assert.equal(registryName('https://signals.example.com'), 'com.example.signals/signal-service');
  });
});
