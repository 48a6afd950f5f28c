import { siteUrls } from '../domain/urls.js';
import { agentTools } from './registry.js';

type Operation = Record<string, unknown>;
type OpenApiDocument = { paths?: Record<string, Record<string, Operation>> } & Record<string, unknown>;

/**
 * Links each REST operation that has an agent analog to its tools: `x-mcp-tool` lists the registry tools that answer
 * the same question (name, title, where to call them over MCP and function calling). Generated from the registry, so
 * a new tool or a moved route never leaves a stale link.
 */
export function addMcpToolLinks<T>(document: T, baseUrl: string): T {
  const doc = document as OpenApiDocument;
  const urls = siteUrls(baseUrl);
  for (const tool of agentTools) {
    const operation = doc.paths?.[tool.rest.path]?.[tool.rest.method.toLowerCase()];
    if (!operation) continue;
    const links = (operation['x-mcp-tool'] ??= []) as Record<string, unknown>[];
    links.push({
      name: tool.name,
      title: tool.title,
      mcp: urls.api('/api/mcp/rpc'),
      functionCalling: urls.api('/api/agent/call'),
    });
  }
  return document;
}
