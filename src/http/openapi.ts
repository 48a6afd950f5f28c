import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addMcpToolLinks } from '../agents/openapi-links.js';
import { DATA_LICENSE, INTERFACE_REVISION_DATE, INTERFACE_VERSION } from '../domain/license.js';
import { Problem } from '../schemas/problem.js';
import { rendered, type Rendered } from '../snapshot/snapshot.js';
import { addExamples } from './openapi-examples.js';
import { problemBody, statusTitle } from './problem.js';

/** Response entries for error statuses, all RFC 9457 problem documents. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: statusTitle(status), content: { 'application/problem+json': { schema: Problem } } },
    ]),
  );
}

/** A non-JSON response body (CSV, JSON lines, plain text, XML) described for the OpenAPI document. */
export function textContent(contentType: string, description: string) {
  return { description, content: { [contentType]: { schema: z.string() } } };
}

export async function registerOpenApi(app: FastifyInstance, baseUrl: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signal Service API',
        version: INTERFACE_VERSION,
        description: `Startup engineering-acceleration signals derived from public code-hosting activity. Interface revision ${INTERFACE_REVISION_DATE}. ${DATA_LICENSE.terms}`,
        license: { name: DATA_LICENSE.name, url: DATA_LICENSE.url },
      },
      servers: [{ url: baseUrl }],
      components: {
        securitySchemes: {
          creditKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A credit-pack key (`sigsk_` + 43 characters), e-mailed after a card checkout at /agents/credits or issued with `signal-service keys create`. Send `Authorization: Bearer <key>`.',
          },
        },
      },
      tags: [
        { name: 'signals', description: 'Per-period signals and exports' },
        { name: 'answers', description: 'Citation-ready answers over the agent-query and FAQ corpus' },
        {
          name: 'search',
          description: 'Site-wide search over startups, sectors, posts, comparisons, answers, FAQs and research',
        },
        { name: 'diligence', description: 'Public-source diligence dossiers' },
        { name: 'documents', description: 'Methodology, glossary, changelog, pricing and ledgers' },
        { name: 'feeds', description: 'RSS feed and llms.txt' },
        { name: 'citations', description: 'Reference-manager citation exports' },
        { name: 'markets', description: 'Prediction markets computed from the current period' },
        { name: 'agents', description: 'Agent surfaces: catalog, MCP, A2A, function calling and NLWeb' },
        { name: 'scout', description: 'Scout Score receipts, predictions, card and SVG badges' },
        { name: 'paid', description: 'Deep Signal and credit-pack accounts (credit-pack key as a Bearer token)' },
        {
          name: 'alerts',
          description: 'Alert subscriptions, their webhooks, e-mail digests, Atom feeds and delivery logs',
        },
        { name: 'operations', description: 'Health and readiness' },
        { name: 'meta', description: 'Interface description' },
      ],
    },
    transform: withResponseHeaders,
    transformObject: (input) =>
      addExamples(addMcpToolLinks(jsonSchemaTransformObject(input), baseUrl), baseUrl, undefined, (status) =>
        problemBody(status, statusTitle(status), undefined, undefined),
      ),
    hideUntagged: false,
  });
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The zod transform drops the `headers` of a response entry; put them back so response headers a route documents
 * (`headers: {'X-Name': {type, description}}`) reach the OpenAPI document.
 */
function withResponseHeaders(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const output = jsonSchemaTransform(input);
  const source = (input.schema as { response?: Record<string, { headers?: unknown }> } | undefined)?.response;
  const target = (output.schema as { response?: Record<string, Record<string, unknown>> }).response;
  for (const [status, entry] of Object.entries(source ?? {})) {
    if (!entry || typeof entry !== 'object' || !entry.headers || !target?.[status]) continue;
    // Accept both {type, description} and {description, schema: {type}} for each header.
    target[status].headers = Object.fromEntries(
      Object.entries(entry.headers as Record<string, { schema?: object; description?: string }>).map(([name, h]) =>
        h.schema ? [name, { ...h.schema, ...(h.description ? { description: h.description } : {}) }] : [name, h],
      ),
    );
  }
  return output;
}

/** The OpenAPI document, generated from the registered routes once the server is ready, and rendered once. */
export function renderOpenApi(app: FastifyInstance): Rendered {
  return rendered(JSON.stringify(app.swagger()), 'application/json; charset=utf-8');
}
