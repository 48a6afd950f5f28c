import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { agentTools, toolJsonSchema } from '../../agents/registry.js';
import { DATA_LICENSE, INTERFACE_VERSION } from '../../core/license.js';
import { siteUrls } from '../../core/urls.js';
import { AgentCatalog } from '../../schemas/documents.js';
import { rendered } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import type { AppContext } from '../context.js';

/** The agent skill catalog, generated from the tool registry: every tool with its argument schema and REST analog. */
export function buildAgentCatalog(baseUrl: string): AgentCatalog {
  const urls = siteUrls(baseUrl);
  return {
    name: 'Signal Service',
    description:
      'Startup engineering-acceleration signals from public GitHub activity: trending startups, sector rankings, single-startup lookup, diligence dossiers, scout scores, methodology and a paid Deep Signal.',
    version: INTERFACE_VERSION,
    url: urls.home(),
    documentation: urls.api('/api/openapi.json'),
    license: `${DATA_LICENSE.name} (${DATA_LICENSE.url})`,
    surfaces: {
      mcp: { http: urls.api('/api/mcp/rpc'), manifest: urls.api('/.well-known/mcp.json') },
      a2a: { endpoint: urls.api('/api/a2a'), agentCard: urls.api('/.well-known/agent-card.json') },
      functionCalling: {
        definitions: urls.api('/api/agent/tools'),
        formats: 'openai, anthropic, gemini (query parameter format)',
        call: urls.api('/api/agent/call'),
      },
      naturalLanguage: { nlweb: urls.api('/api/nlweb'), ask: urls.api('/api/ask'), llmsTxt: urls.api('/llms.txt') },
    },
    authentication: {
      free: 'none',
      deepSignalCredits: 'Authorization: Bearer <API_KEY>',
      deepSignalX402: 'X-PAYMENT header (x402)',
    },
    tools: agentTools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolJsonSchema(tool),
      annotations: { ...tool.annotations },
      rest: { method: tool.rest.method, url: urls.api(tool.rest.path), note: tool.rest.note },
      paid: tool.paid,
    })),
    resources: [
      { uri: 'signal://summary', name: 'Signals summary', description: 'Meta of the current period and format URLs.' },
      { uri: 'signal://trending', name: 'Trending startups', description: 'The top 20 of the current period.' },
      {
        uri: 'signal://startup/{name}',
        name: 'One startup',
        description: 'Resource template: the signal of one startup by name.',
      },
    ],
    pricing: urls.api('/api/v1/pricing.json'),
  };
}

export async function agentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalog = rendered(JSON.stringify(buildAgentCatalog(ctx.config.baseUrl)), 'application/json; charset=utf-8');
  const schema = {
    summary: 'Agent skill catalog, generated from the tool registry',
    tags: ['agents'],
    response: { 200: AgentCatalog },
  };
  r.get('/api/agents.json', { schema: { ...schema, operationId: 'getAgents' } }, (request, reply) =>
    sendRendered(request, reply, catalog),
  );
  r.get(
    '/api/v1/agents.json',
    { schema: { ...schema, operationId: 'getAgentsV1', description: 'Byte-identical to /api/agents.json.' } },
    (request, reply) =>
      sendRendered(request, reply, catalog, {
        link: `<${siteUrls(ctx.config.baseUrl).api('/api/agents.json')}>; rel="canonical"`,
      }),
  );
}
