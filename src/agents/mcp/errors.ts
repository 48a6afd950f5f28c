import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceError } from '../../domain/errors.js';

/**
 * The one place a ServiceError becomes MCP: a tool that fails answers an `isError` result (the model reads the
 * reason and may retry), a resource read that fails answers a JSON-RPC error (the caller's fault, −32602, for a 4xx;
 * the server's, −32603, otherwise). Both carry the same text: `<status> <title>: <detail>`.
 */
export function errorText(error: ServiceError): string {
  return `${error.status} ${error.title}${error.detail ? `: ${error.detail}` : ''}`;
}

export function toolErrorResult(error: ServiceError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(error) }] };
}

export function jsonRpcError(error: ServiceError): McpError {
  return new McpError(error.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, errorText(error));
}
