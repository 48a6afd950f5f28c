import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceError } from '../../domain/errors.js';

/**
 * The one place a ServiceError becomes MCP: a tool that fails answers an `isError` result (the model reads the
 * reason and may retry), a resource read or a prompt that fails answers a JSON-RPC error (the caller's fault,
 * −32602, for a 4xx; the server's, −32603, otherwise). Both carry the same text: `<status> <title>: <detail>`, then
 * what to do next when the error says it (a paid tool's purchase URL and balance).
 */
export function errorText(error: ServiceError): string {
  const text = `${error.status} ${error.title}${error.detail ? `: ${error.detail}` : ''}`;
  const { purchaseUrl, x402Url, balance } = error.extensions as {
    purchaseUrl?: unknown;
    x402Url?: unknown;
    balance?: unknown;
  };
  const next: string[] = [];
  if (typeof balance === 'number') next.push(`Balance: ${balance} credits.`);
  if (typeof purchaseUrl === 'string') next.push(`Buy a credit pack at ${purchaseUrl}.`);
  if (typeof x402Url === 'string') next.push(`Or pay per call with x402 at POST ${x402Url}.`);
  return next.length ? `${text} ${next.join(' ')}` : text;
}

/**
 * A failed tool call: the text for the model, and under `_meta.error` the same facts for a program (status, code
 * and the error's extensions, e.g. `purchaseUrl`, `balance`, `errors`).
 */
export function toolErrorResult(error: ServiceError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: errorText(error) }],
    _meta: { error: { status: error.status, code: error.code, ...error.extensions } },
  };
}

/**
 * A JSON-RPC error this server answers. The SDK's McpError writes "MCP error <code>: " into its message, and a client
 * adds the same prefix again when it reads the error ("MCP error -32602: MCP error -32602: …"); this one keeps the
 * message as written, so a client shows the prefix once. Still an McpError for everything that checks.
 */
export class ProtocolError extends McpError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.message = message;
  }
}

export function jsonRpcError(error: ServiceError): McpError {
  return new ProtocolError(error.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, errorText(error));
}
