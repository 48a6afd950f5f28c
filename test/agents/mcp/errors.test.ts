import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError } from '../../../src/domain/errors.js';
import { errorText, jsonRpcError, toolErrorResult } from '../../../src/agents/mcp/errors.js';

describe('a service error in MCP', () => {
  test('its text is status, title and detail', () => {
    assert.equal(
      errorText(ServiceError.relay('insufficient-credits', 'No credit left.')),
      '402 Payment Required: No credit left.',
    );
  });

  test('its text without a detail is status and title', () => {
    assert.equal(errorText(ServiceError.relay('internal', undefined)), '500 Internal Server Error');
  });

  test('a failed tool call is an isError result carrying the text, and the facts under _meta.error', () => {
    assert.deepEqual(toolErrorResult(ServiceError.relay('credentials-missing', 'Send a key.')), {
      isError: true,
      content: [{ type: 'text', text: '401 Unauthorized: Send a key.' }],
      _meta: { error: { status: 401, code: 'credentials-missing' } },
    });
  });

  test('a paid-tool error says the balance and where to buy credits', () => {
    const error = ServiceError.relay('insufficient-credits', 'No credit left.', {
      extensions: { purchaseUrl: 'https://s.test/agents/credits', x402Url: 'https://s.test/x402', balance: 0 },
    });
    assert.equal(
      errorText(error),
      '402 Payment Required: No credit left. Balance: 0 credits. Buy a credit pack at https://s.test/agents/credits. Or pay per call with x402 at POST https://s.test/x402.',
    );
    assert.equal(
      (toolErrorResult(error)._meta!.error as Record<string, unknown>).purchaseUrl,
      'https://s.test/agents/credits',
    );
  });

  test('a failed resource read with a 4xx error is JSON-RPC invalid params (−32602)', () => {
    const error = jsonRpcError(ServiceError.relay('invalid-arguments', 'name is too long.'));
    assert.ok(error instanceof McpError);
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, /400 Bad Request: name is too long\./);
  });

  test('a failed resource read with a 5xx error is JSON-RPC internal error (−32603)', () => {
    const error = jsonRpcError(ServiceError.relay('github-unavailable', 'Later.'));
    assert.equal(error.code, ErrorCode.InternalError);
  });
});
