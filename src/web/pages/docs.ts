import { html, raw, type SafeHtml } from '../html.js';
import { copyBox } from '../copy-box.js';
import type { PageInput } from '../layout.js';

/**
 * /docs: the API reference, rendered on the server from the service's own OpenAPI document (the one
 * /api/openapi.json serves), in the site's layout: no viewer bundle, no script. Each operation shows its parameters,
 * body and responses, a curl line to copy and the example response (both from the document's examples); a GET without
 * path parameters can be tried with a plain form that opens the response. The only script is the copy button's.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: { type?: string | string[]; enum?: unknown[]; default?: unknown; maxLength?: number; maximum?: number };
}
interface Operation {
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
  responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
  security?: unknown[];
  /** Headers the example request sent besides the key and the content type. */
  'x-example-headers'?: Record<string, string>;
}
export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  components?: { schemas?: Record<string, JsonSchema>; examples?: Record<string, ExampleObject> };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
}
interface ExampleObject {
  $ref?: string;
  summary?: string;
  value?: unknown;
}
interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

/** The document's example of a media type, when it gives one: its first, a `$ref` into components resolved. */
function exampleObject(doc: OpenApiDocument, media: MediaType | undefined): ExampleObject | undefined {
  if (!media) return undefined;
  if (media.example !== undefined) return { value: media.example };
  const first = Object.values(media.examples ?? {})[0];
  const ref = first?.$ref?.replace('#/components/examples/', '');
  return ref ? doc.components?.examples?.[ref] : first;
}

function exampleOf(media: MediaType | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  return Object.values(media.examples ?? {})[0]?.value;
}

/** A request body to copy: the document's example, else the required fields with their example or a placeholder. */
function bodyExample(doc: OpenApiDocument, media: MediaType | undefined): unknown {
  const given = exampleOf(media);
  if (given !== undefined) return given;
  let schema = media?.schema;
  const ref = schema?.$ref?.replace('#/components/schemas/', '');
  if (ref) schema = doc.components?.schemas?.[ref];
  if (!schema?.properties) return undefined;
  const fields = schema.required?.length ? schema.required : Object.keys(schema.properties).slice(0, 1);
  return Object.fromEntries(
    fields.map((name) => {
      const f = schema.properties![name] ?? {};
      return [name, f.example ?? f.examples?.[0] ?? f.default ?? f.enum?.[0] ?? `<${name}>`];
    }),
  );
}

/**
 * The curl command of an operation: the request its example response answers (the parameters' examples; a
 * placeholder for a required one without), the key, the body.
 */
function curlOf(doc: OpenApiDocument, method: string, path: string, op: Operation): string {
  const base = (doc.servers?.[0]?.url ?? '').replace(/\/$/, '');
  const params = op.parameters ?? [];
  const query = new URLSearchParams(
    params
      .filter((p) => p.in === 'query' && (p.required || p.example !== undefined))
      .map((p): [string, string] => [p.name, p.example !== undefined ? String(p.example) : `<${p.name}>`]),
  )
    .toString()
    .replace(/%3C([^%]+)%3E/g, '<$1>');
  const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const example = params.find((p) => p.in === 'path' && p.name === name)?.example;
    return example !== undefined ? encodeURIComponent(String(example)) : `<${name}>`;
  });
  const url = `${base}${filled}${query ? `?${query}` : ''}`;
  const lines = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} '${url}'`];
  if (op.security?.length) lines.push(`  -H "Authorization: Bearer $KEY"`);
  for (const [name, value] of Object.entries(op['x-example-headers'] ?? {})) lines.push(`  -H '${name}: ${value}'`);
  const json = op.requestBody?.content?.['application/json'] as MediaType | undefined;
  if (json) {
    const body = bodyExample(doc, json);
    lines.push(`  -H 'Content-Type: application/json'`);
    if (body !== undefined) lines.push(`  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`);
  }
  return lines.join(' \\\n');
}

/**
 * Text for an element's content, not an attribute: only `&`, `<` and `>` need escaping there, so the quotes of JSON
 * examples stay one byte each (the page carries one example per operation).
 */
function preText(text: string): SafeHtml {
  return raw(text.replace(/&/g, '&#38;').replace(/</g, '&#60;').replace(/>/g, '&#62;'));
}

/** Lines of an example shown on the page; a longer one is cut there (the document has it whole). */
const EXAMPLE_LINES = 40;

function exampleBody(example: ExampleObject): SafeHtml {
  const text = typeof example.value === 'string' ? example.value : JSON.stringify(example.value, null, 2);
  const lines = text.split('\n');
  const cut = lines.length > EXAMPLE_LINES;
  return html`${example.summary ? html`<p class="muted">${example.summary}.</p>` : ''}
    <pre><code>${preText(cut ? `${lines.slice(0, EXAMPLE_LINES).join('\n')}\n…` : text)}</code></pre>
    ${cut ? html`<p class="muted">The first ${EXAMPLE_LINES} of ${lines.length} lines: the whole example is in <a href="/api/openapi.json">the OpenAPI document</a>.</p>` : ''}`;
}

/** Text with `code` spans (the documents' descriptions use Markdown backticks), escaped. */
function prose(text: string | undefined): SafeHtml {
  if (!text) return html``;
  const parts = text.split('`');
  return html`${parts.map((p, i) => (i % 2 ? html`<code>${p}</code>` : p))}`;
}

function typeOf(p: Parameter): string {
  const s = p.schema ?? {};
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'string');
  if (s.enum) return `${type}: ${s.enum.join(', ')}`;
  return type;
}

function anchor(method: string, path: string, op: Operation): string {
  return op.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
}

function tryIt(method: string, path: string, op: Operation, id: string): SafeHtml {
  if (method !== 'get' || path.includes('{')) return html``;
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  // A button, not a link: a crawler following links must not call what needs a key or a configured payment rail.
  if (query.length === 0)
    return html`<form method="get" action="${path}">
      <p><button type="submit" aria-label="Try it: GET ${path}">Try it</button></p>
    </form>`;
  return html`<form class="filters" method="get" action="${path}" aria-label="Try ${path}">
    ${query.map(
      (p) =>
        html`<p>
          <label for="${id}-${p.name}">${p.name}${p.required ? ' (required)' : ''}</label>
          <input
            id="${id}-${p.name}"
            type="text"
            name="${p.name}"
            ${p.required ? html`required` : ''}
            ${p.schema?.maxLength ? html`maxlength="${p.schema.maxLength}"` : ''}
            ${p.schema?.default !== undefined ? html`placeholder="${String(p.schema.default)}"` : ''}
          />
        </p>`,
    )}
    <p><button type="submit" aria-label="Try it: GET ${path}">Try it</button></p>
  </form>`;
}

function operation(doc: OpenApiDocument, o: Listed): SafeHtml {
  const { method, path, op } = o;
  const id = anchor(method, path, op);
  const params = op.parameters ?? [];
  const ok = Object.entries(op.responses ?? {}).find(([status]) => /^2/.test(status));
  const shown = Object.entries((ok?.[1].content ?? {}) as Record<string, MediaType>)
    .map(([type, media]) => ({ type, example: exampleObject(doc, media) }))
    .find((m) => m.example?.value !== undefined);
  return html`<section class="operation" id="${id}" aria-labelledby="${id}-h">
    <h3 id="${id}-h"><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p>${op.summary ?? ''}${op.security?.length ? html` <span class="badge">needs a key or a payment</span>` : ''}</p>
    ${o.mirrors.length ? html`<p class="muted">Also at ${o.mirrors.map((m, i) => html`${i ? ', ' : ''}<code>${m}</code>`)} (the same operation).</p>` : ''}
    ${copyBox(preText(curlOf(doc, method, path, op)), `the request: ${method.toUpperCase()} ${path}`)}
    ${
      !shown && ok && !Object.keys(ok[1].content ?? {}).length
        ? html`<p class="example">Example response: ${ok[0]}, no body.</p>`
        : ''
    }
    ${
      shown
        ? html`<details class="example">
            <summary>
              Example response<span class="visually-hidden"> of ${method.toUpperCase()} ${path}</span>: ${ok![0]}
              <code>${shown.type}</code>
            </summary>
            ${exampleBody(shown.example!)}
          </details>`
        : ''
    }
    <details>
      <summary>Details<span class="visually-hidden"> of ${method.toUpperCase()} ${path}</span></summary>
      ${op.description ? html`<p>${prose(op.description)}</p>` : ''}
      ${
        params.length
          ? html`<div class="table-scroll">
              <table class="stack">
                <caption>
                  Parameters
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">In</th>
                    <th scope="col">Type</th>
                    <th scope="col">Description</th>
                  </tr>
                </thead>
                <tbody>
                  ${params.map(
                    (p) =>
                      html`<tr>
                        <td class="lead"><code>${p.name}</code>${p.required ? ' (required)' : ''}</td>
                        <td data-label="In">${p.in}</td>
                        <td data-label="Type">${typeOf(p)}</td>
                        <td data-label="Description">${prose(p.description)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : ''
      }
      ${
        op.requestBody
          ? html`<p>
              Body${op.requestBody.required ? ' (required)' : ''}:
              ${Object.keys(op.requestBody.content ?? {}).map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}
            </p>`
          : ''
      }
      <p>Responses:</p>
      <ul>
        ${Object.entries(op.responses ?? {}).map(
          ([status, r]) =>
            html`<li>
              <strong>${status}</strong> ${prose(r.description)}
              ${Object.keys(r.content ?? {}).length ? html`(${Object.keys(r.content ?? {}).map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)})` : ''}
            </li>`,
        )}
      </ul>
    </details>
    ${tryIt(method, path, op, id)}
  </section>`;
}

interface Listed {
  method: string;
  path: string;
  op: Operation;
  /** The versioned paths that serve the same operation (/api/v1/… beside /api/…). */
  mirrors: string[];
}

/** One entry per operation: a /api/v1/ path whose /api/ original has the same method is noted beside it. */
export function listedOperations(doc: OpenApiDocument): Listed[] {
  const paths = doc.paths ?? {};
  const ops: Listed[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const original = path.startsWith('/api/v1/') ? `/api/${path.slice('/api/v1/'.length)}` : undefined;
      if (original && paths[original]?.[method]) continue;
      ops.push({ method, path, op, mirrors: [] });
    }
  }
  for (const o of ops) {
    const mirror = o.path.startsWith('/api/') ? `/api/v1/${o.path.slice('/api/'.length)}` : undefined;
    if (mirror && mirror !== o.path && paths[mirror]?.[o.method as (typeof METHODS)[number]]) o.mirrors.push(mirror);
  }
  return ops;
}

/** What every error looks like: one problem document of the document's examples. */
function errorsSection(doc: OpenApiDocument): SafeHtml {
  const problem = doc.components?.examples?.['Problem-400'] ?? doc.components?.examples?.['Problem-404'];
  return html`<section id="errors" aria-labelledby="errors-h">
    <h2 id="errors-h">Errors</h2>
    <p>
      Every error is an RFC 9457 problem document (<code>application/problem+json</code>): <code>type</code>,
      <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, <code>errors</code> naming
      each invalid input, and members of its own where a problem has them.
    </p>
    ${
      problem?.value !== undefined
        ? html`<details class="example">
            <summary>Example problem: ${problem.summary ?? ''}</summary>
            <pre><code>${preText(JSON.stringify(problem.value, null, 2))}</code></pre>
          </details>`
        : ''
    }
  </section>`;
}

export function docsPage(doc: OpenApiDocument): PageInput {
  const ops = listedOperations(doc);
  const tags = [...(doc.tags ?? [])];
  for (const o of ops) {
    const tag = o.op.tags?.[0] ?? 'other';
    if (!tags.some((t) => t.name === tag)) tags.push({ name: tag });
  }
  const byTag = tags
    .map((t) => ({ ...t, ops: ops.filter((o) => (o.op.tags?.[0] ?? 'other') === t.name) }))
    .filter((t) => t.ops.length > 0);
  const body = html`<h1>API reference</h1>
    <p class="lede">
      ${ops.length} operations of ${doc.info?.title ?? 'the API'}, interface version ${doc.info?.version ?? ''},
      generated from <a href="/api/openapi.json">the OpenAPI document</a>. Free endpoints need no key; Deep Signal takes
      a credit-pack key or a payment (<a href="/pricing">pricing</a>).
    </p>
    <p>${prose(doc.info?.description)}</p>
    <div class="docs-layout">
      <nav class="docs-nav" aria-label="Operations">
        <h2 id="api-contents">Operations</h2>
        <p><a href="#errors">Errors</a></p>
        ${byTag.map(
          (t) =>
            html`<details open>
              <summary>${t.name} <span class="muted">(${t.ops.length})</span></summary>
              <ul>
                ${t.ops.map(
                  (o) =>
                    html`<li>
                      <a href="#${anchor(o.method, o.path, o.op)}"
                        ><span class="method">${o.method.toUpperCase()}</span> ${o.path}</a
                      >
                    </li>`,
                )}
              </ul>
            </details>`,
        )}
      </nav>
      <div class="docs-body">
        ${errorsSection(doc)}
        ${byTag.map(
          (t) =>
            html`<section id="tag-${t.name}" aria-labelledby="tag-${t.name}-h">
              <h2 id="tag-${t.name}-h">${t.name}</h2>
              ${t.description ? html`<p class="muted">${t.description}</p>` : ''} ${t.ops.map((o) => operation(doc, o))}
            </section>`,
        )}
      </div>
    </div>`;
  return {
    path: '/docs',
    title: 'API reference',
    description:
      'Reference of the Signal Service API: signals, answers, search, diligence, scout, markets, Deep Signal and agent surfaces.',
    body,
    synthetic: false,
    section: 'docs',
  };
}
