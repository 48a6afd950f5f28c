import { AgentCard } from '@a2a-js/sdk';
import { INTERFACE_VERSION } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';
import { A2A_SKILLS } from './skills.js';

/**
 * The agent card at /.well-known/agent-card.json, one document for both protocol generations:
 * - A2A 1.0 reads `supportedInterfaces`, which lists the JSON-RPC endpoint twice, as 1.0 and as 0.3 (a request with
 *   no A2A-Version header is a 0.3 request, and is refused unless 0.3 is declared);
 * - A2A 0.3 clients read the card-level `url`, `preferredTransport` and `protocolVersion`.
 * Everything else (skills, modes, capabilities) has the same shape in both.
 */
export const A2A_PATH = '/api/a2a';

/** The name the card gives the credit-pack key's scheme. */
export const A2A_BEARER_SCHEME = 'creditPackKey';

/** The skill whose paid form (`deep: true`, the Deep Signal) takes the key; every other answer is free. */
export const A2A_KEYED_SKILL = 'startup-signal';

const BEARER_DESCRIPTION =
  'The credit-pack key (Authorization: Bearer <API_KEY>), needed only for the paid Deep Signal (skill startup-signal with deep: true); every other request is answered without it.';

/**
 * The Bearer scheme in both generations' shapes, side by side in one object: A2A 1.0 reads `httpAuthSecurityScheme`
 * (its protobuf JSON), 0.3 reads `type` and `scheme` (OpenAPI's); each ignores the other's fields.
 */
const bearerScheme = {
  httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'API key', description: BEARER_DESCRIPTION },
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'API key',
  description: BEARER_DESCRIPTION,
};

export function buildAgentCardJson(baseUrl: string): Record<string, unknown> {
  const urls = siteUrls(baseUrl);
  const endpoint = urls.api(A2A_PATH);
  return {
    name: 'Signal Service',
    description:
      'Startup engineering-acceleration signals from public GitHub activity: trending startups, sector rankings, single-startup lookup (with its history over the stored weeks, a comparison, or the paid Deep Signal), a period summary (with the stored periods, questions answered with citations and site search) and the methodology. Ask in plain text or send a data part {"skill": …, "arguments": {…}}. Every message is answered by a task (completed, failed with its reason, or rejected when the request is not one this agent serves) that tasks/get can fetch again for a day; message/stream sends the same task as Server-Sent Events as it is produced.',
    version: INTERFACE_VERSION,
    provider: { organization: 'Signal Service', url: urls.home() },
    documentationUrl: urls.api('/api/openapi.json'),
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
    ],
    // A2A 0.3 fields.
    protocolVersion: '0.3.0',
    url: endpoint,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: endpoint, transport: 'JSONRPC' }],
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { [A2A_BEARER_SCHEME]: bearerScheme },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: A2A_SKILLS.map((s) => ({
      id: s.id,
      name: s.tool.title,
      description: `${s.tool.description} (MCP tool ${s.tool.name}.) ${s.argumentsHelp}`,
      tags: s.tags,
      examples: s.examples,
      inputModes: ['text/plain', 'application/json'],
      outputModes: ['text/plain', 'application/json'],
      // Without a key, or with it: the empty alternative keeps the skill's free answers open to everyone.
      ...(s.id === A2A_KEYED_SKILL
        ? {
            securityRequirements: [{ schemes: {} }, { schemes: { [A2A_BEARER_SCHEME]: { list: [] } } }],
            security: [{}, { [A2A_BEARER_SCHEME]: [] }],
          }
        : {}),
    })),
  };
}

/** The same card as the SDK's request handler wants it (its protobuf-derived 1.0 type). */
export function buildAgentCard(baseUrl: string): AgentCard {
  return AgentCard.fromJSON(buildAgentCardJson(baseUrl));
}
