import { INTERFACE_VERSION } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';
import { agentTools } from '../registry.js';
import { alertAgentTools } from '../alert-tools.js';
import { promptList } from './prompts.js';
import { MCP_CAPABILITIES, MCP_RESOURCES, MCP_SERVER_NAME, MCP_STARTUP_TEMPLATE } from './server.js';

/**
 * /.well-known/mcp.json. No settled standard exists for this document, so it is a plain description: who we are,
 * how to connect (the stdio command and the Streamable HTTP endpoint), and what the tools and resources are, all
 * generated from the registry.
 */
export function buildMcpManifest(baseUrl: string) {
  const urls = siteUrls(baseUrl);
  return {
    name: MCP_SERVER_NAME,
    title: 'Signal Service',
    version: INTERFACE_VERSION,
    description:
      "Startup engineering-acceleration signals from public GitHub activity, as MCP tools, resources and prompts: trending startups, sector rankings, single-startup lookup, diligence dossiers, scout scores, methodology, site search, answers with citations, a startup's weekly history, comparisons, the stored periods and a paid Deep Signal.",
    homepage: urls.home(),
    transports: [
      {
        type: 'stdio',
        command: 'signal-mcp',
        env: {
          SIGNAL_BASE_URL: 'optional: proxy this deployment instead of serving local data',
          SIGNAL_API_KEY: 'optional: credit-pack key for get_deep_signal',
        },
      },
      { type: 'streamable-http', url: urls.api('/mcp'), stateless: true },
      { type: 'streamable-http', url: urls.api('/api/mcp/rpc'), stateless: true },
    ],
    capabilities: MCP_CAPABILITIES,
    authentication: {
      get_deep_signal: 'Authorization: Bearer <API_KEY> (HTTP) or SIGNAL_API_KEY (stdio)',
      ...Object.fromEntries(
        alertAgentTools.map((t) => [
          t.name,
          'Authorization: Bearer <API_KEY> (HTTP) or SIGNAL_API_KEY (stdio); no credit spent',
        ]),
      ),
    },
    idempotency: {
      get_deep_signal:
        'Idempotency-Key header (HTTP) or _meta.idempotencyKey in tools/call: a retry with the same key is answered once and charged once',
    },
    tools: [...agentTools, ...alertAgentTools].map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      annotations: { ...t.annotations },
      paid: t.paid,
    })),
    resources: MCP_RESOURCES.map((r) => ({ uri: r.uri, name: r.name, title: r.title, description: r.description })),
    prompts: promptList(),
    resourceTemplates: [
      {
        uriTemplate: MCP_STARTUP_TEMPLATE.uriTemplate,
        name: MCP_STARTUP_TEMPLATE.name,
        title: MCP_STARTUP_TEMPLATE.title,
        description: MCP_STARTUP_TEMPLATE.description,
      },
    ],
  };
}
