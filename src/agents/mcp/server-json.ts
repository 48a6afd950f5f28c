import { INTERFACE_VERSION } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';

/** The version of the registry's server.json format this document follows. */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Where a deployment serves its own server.json, for `mcp-publisher` and for hosts that look for it. */
export const SERVER_JSON_PATH = '/.well-known/mcp/server.json';

/** The registry allows at most 100 characters of description. */
const DESCRIPTION = 'Startup engineering-acceleration signals from public GitHub activity, with citations.';

/**
 * The server's name in the registry: reverse-DNS of the deployment's host (the namespace `mcp-publisher` proves with
 * the host's DNS record or its HTTP well-known file), then the server.
 */
export function registryName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  return `${host.split('.').reverse().join('.')}/signal-service`;
}

/**
 * server.json for the official MCP Registry: the deployment's Streamable HTTP endpoint (remote) and the `signal-mcp`
 * command (the npm package `signal-service`, stdio), each with what a host must ask its user for.
 */
export function buildServerJson(baseUrl: string, packageVersion: string) {
  const urls = siteUrls(baseUrl);
  const key = {
    description: 'Credit-pack key, only for get_deep_signal and the alert tools (every other tool is free).',
    isRequired: false,
    isSecret: true,
  };
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: registryName(baseUrl),
    title: 'Signal Service',
    description: DESCRIPTION,
    version: INTERFACE_VERSION,
    websiteUrl: urls.home(),
    icons: [{ src: urls.api('/assets/icon.svg'), mimeType: 'image/svg+xml', sizes: ['any'] }],
    remotes: [
      {
        type: 'streamable-http',
        url: urls.api('/mcp'),
        headers: [{ name: 'Authorization', value: 'Bearer {api_key}', ...key, variables: { api_key: key } }],
      },
    ],
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: 'signal-service',
        version: packageVersion,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: [
          {
            name: 'SIGNAL_BASE_URL',
            description: 'Proxy this deployment instead of serving local data.',
            isRequired: false,
            default: urls.home().replace(/\/$/, ''),
          },
          { name: 'SIGNAL_API_KEY', ...key },
        ],
      },
    ],
  };
}
