import { ServiceError } from '../../domain/errors.js';
import type { SettlementResponseV2 } from '../../payments/x402/payload.js';
import type { PaymentRequiredV2 } from '../../payments/x402/requirements.js';
import { X402_DEEP_SIGNAL_PATH } from '../../payments/x402/deep-signal.js';
import { X402_MCP_TOOL, type McpPaidCall, type McpX402 } from './x402.js';
import { findTool } from '../registry.js';

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

function decodeHeader<T>(value: string | null): T | undefined {
  if (!value) return undefined;
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * x402 over MCP for `signal-mcp` proxying a deployment (SIGNAL_BASE_URL): get_deep_signal is sold by that
 * deployment's x402 route, `POST /api/agent/deep-signal/x402`. The call's `_meta["x402/payment"]` travels as its
 * PAYMENT-SIGNATURE header; its 402 (the offer in PAYMENT-REQUIRED) becomes the MCP offer, its 200 the answer with
 * the PAYMENT-RESPONSE settlement, its 404 the free miss. The deployment does every check, once.
 */
export function remoteX402(baseUrl: string, fetchImpl: typeof fetch = fetch): McpX402 {
  const tool = findTool(X402_MCP_TOOL)!;
  return {
    async deepSignal(args, payment): Promise<McpPaidCall> {
      const parsed = tool.inputSchema.safeParse(args);
      if (!parsed.success) {
        const errors = parsed.error.issues.map((i) => ({
          location: `arguments.${i.path.join('.')}`,
          message: i.message,
        }));
        throw new ServiceError('invalid-tool-arguments', { tool: tool.name, errors });
      }
      let response: Response;
      try {
        response = await fetchImpl(`${baseUrl}${X402_DEEP_SIGNAL_PATH}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(payment !== undefined ? { 'payment-signature': base64Json(payment) } : {}),
          },
          body: JSON.stringify(parsed.data),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        throw new ServiceError('remote-unreachable', { baseUrl, reason: (err as Error).message });
      }
      const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      if (response.status === 402) {
        const offer = decodeHeader<PaymentRequiredV2>(response.headers.get('payment-required'));
        if (offer) return { kind: 'payment-required', paymentRequired: offer };
      }
      if ((response.status === 200 || response.status === 404) && body) {
        const settlement = decodeHeader<SettlementResponseV2>(response.headers.get('payment-response'));
        return { kind: 'answer', result: body, ...(settlement ? { settlement } : {}) };
      }
      throw ServiceError.remote({ status: response.status, baseUrl, detail: body?.detail });
    },
  };
}
