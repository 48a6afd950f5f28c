import { html, type SafeHtml } from '../html.js';
import type { PageInput } from '../layout.js';

/**
 * /docs: the API reference, rendered on the server from the service's own OpenAPI document (the one
 * /api/openapi.json serves), in the site's layout: no viewer bundle, no script. Each operation shows its parameters,
 * body and responses; a GET without path parameters can be tried with a plain form that opens the response.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
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
}
export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

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

function operation(method: string, path: string, op: Operation): SafeHtml {
  const id = anchor(method, path, op);
  const params = op.parameters ?? [];
  return html`<section class="operation" id="${id}" aria-labelledby="${id}-h">
    <h3 id="${id}-h"><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p>${op.summary ?? ''}${op.security?.length ? html` <span class="badge">needs a key or a payment</span>` : ''}</p>
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

export function docsPage(doc: OpenApiDocument): PageInput {
  const ops: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) ops.push({ method, path, op });
    }
  }
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
    <nav aria-labelledby="api-contents">
      <h2 id="api-contents">Contents</h2>
      <ul class="toc">
        ${byTag.map((t) => html`<li><a href="#tag-${t.name}">${t.name}</a> <span class="muted">(${t.ops.length})</span></li>`)}
      </ul>
    </nav>
    ${byTag.map(
      (t) =>
        html`<section id="tag-${t.name}" aria-labelledby="tag-${t.name}-h">
          <h2 id="tag-${t.name}-h">${t.name}</h2>
          ${t.description ? html`<p class="muted">${t.description}</p>` : ''}
          ${t.ops.map((o) => operation(o.method, o.path, o.op))}
        </section>`,
    )}`;
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
