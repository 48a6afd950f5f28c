import { z } from 'zod';
import type { AppContext } from '../../app.js';
import { fail, ServiceError } from '../../domain/errors.js';
import { countPayment } from '../../metrics.js';
import { deepSignalLookup, deepSignalSeller } from '../../payments/x402/deep-signal.js';
import { payPerCall } from '../../payments/x402/pay-per-call.js';
import type { SettlementResponseV2 } from '../../payments/x402/payload.js';
import { paymentRequiredV2, type PaymentRequiredV2 } from '../../payments/x402/requirements.js';
import { DeepSignal } from '../../schemas/deep-signal.js';
import { runTool } from '../invoke.js';
import { findTool } from '../registry.js';

/**
 * x402 v2 over MCP (the x402 specification's MCP transport): a paid tool called without payment answers a tool
 * result with `isError: true` whose `structuredContent` is the PaymentRequired object and whose first text content
 * is the same object as JSON; the agent signs one of its `accepts` and calls again with the payment payload in the
 * request's `_meta["x402/payment"]`; the answer carries the settlement in the result's `_meta["x402/payment-response"]`.
 */
export const X402_PAYMENT_META = 'x402/payment';
export const X402_PAYMENT_RESPONSE_META = 'x402/payment-response';

/** The paid MCP tool, and the only one sold per call. */
export const X402_MCP_TOOL = 'get_deep_signal';

export type McpPaidCall =
  | { kind: 'answer'; result: Record<string, unknown>; settlement?: SettlementResponseV2 }
  | { kind: 'payment-required'; paymentRequired: PaymentRequiredV2 };

export interface McpX402 {
  /**
   * get_deep_signal paid per call, in the order of the REST route (src/payments/x402/pay-per-call.ts): arguments
   * checked, payment decoded and checked against the offer, verified, the startup looked up (a miss answers
   * `found: false` and settles nothing), settled once, answered. Without a payment: the offer. Errors a payment
   * cannot mend (a malformed payload, an unreachable facilitator) are thrown as ServiceError values.
   */
  deepSignal(args: unknown, payment: unknown): Promise<McpPaidCall>;
}

/** Thrown out of the tool's handler when the call must be paid first (caught in this module, never seen outside). */
class PaymentStillRequired extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * The x402 "bazaar" discovery declaration of the tool (the shape of @x402/extensions' MCP declaration): what a
 * facilitator that catalogues paid resources records when it sees a payment for it, `info` described by `schema`.
 */
export function bazaarDeclaration(inputSchema: Record<string, unknown>, example: { name: string } | undefined) {
  const tool = findTool(X402_MCP_TOOL)!;
  return {
    info: {
      input: {
        type: 'mcp',
        toolName: tool.name,
        description: tool.description,
        transport: 'streamable-http',
        inputSchema,
        ...(example ? { example } : {}),
      },
    },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'mcp' },
            toolName: { type: 'string' },
            description: { type: 'string' },
            transport: { type: 'string', enum: ['streamable-http'] },
            inputSchema: { type: 'object' },
            ...(example ? { example: { type: 'object' } } : {}),
          },
          required: ['type', 'toolName', 'inputSchema'],
          additionalProperties: false,
        },
      },
      required: ['input'],
    },
  };
}

/** Why an unpaid call gets the offer, and the other way to pay. */
const unpaid = (purchaseUrl: string) =>
  `Payment required: pay this call with x402 (sign one of \`accepts\` and call again with the payment payload in \`_meta["x402/payment"]\`), or call with a credit-pack key (Authorization: Bearer <key>; buy one at ${purchaseUrl}).`;

/**
 * Deep Signal sold per call over MCP at `endpoint` (the MCP URL is the x402 resource), or undefined when the server
 * has no x402 wallet. The offer, the checks, the settlement records and the facilitator are the REST route's.
 */
export function mcpX402(ctx: AppContext, endpoint: string): McpX402 | undefined {
  const urls = ctx.urls;
  const seller = deepSignalSeller(ctx.config.x402, ctx.services.x402, endpoint, {
    type: 'object',
    title: 'DeepSignal',
    description: `The tool's outputSchema in tools/list; components.schemas.DeepSignal in ${urls.api('/api/openapi.json')}.`,
    required: Object.keys(DeepSignal.shape),
  });
  if (!seller) return undefined;
  const tool = findTool(X402_MCP_TOOL)!;
  const { $schema: _s, ...inputSchema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
  const refusedKey = () => Promise.resolve(fail(new ServiceError('x402-takes-no-key')));

  const offer = (reason: string): McpPaidCall => {
    const example = ctx.holder.published().startups[0]?.startup.name;
    const extensions = { bazaar: bazaarDeclaration(inputSchema, example ? { name: example } : undefined) };
    return { kind: 'payment-required', paymentRequired: paymentRequiredV2(seller.requirements, reason, extensions) };
  };

  return {
    async deepSignal(args, payment) {
      let settlement: SettlementResponseV2 | undefined;
      const paidTool = {
        ...tool,
        handler: async ({ name }: { name: string }) => {
          if (payment === undefined) throw new PaymentStillRequired(unpaid(urls.api('/agents/credits')));
          const snapshot = ctx.holder.published();
          const outcome = await payPerCall(
            { db: ctx.store.db, ...seller },
            { paymentPayload: payment },
            name,
            deepSignalLookup(snapshot),
          );
          switch (outcome.kind) {
            case 'payment-required':
              countPayment('x402', 'refused');
              throw new PaymentStillRequired(outcome.error);
            case 'not-found':
              return outcome.body;
            case 'paid':
              countPayment('x402', outcome.redelivered ? 'redelivered' : 'settled');
              ctx.log.info(
                {
                  txHash: outcome.receipt.txHash,
                  network: outcome.receipt.network,
                  payer: outcome.receipt.payer,
                  redelivered: outcome.redelivered,
                  surface: 'mcp',
                },
                outcome.redelivered ? 'x402 paid answer delivered on retry' : 'x402 payment settled',
              );
              settlement = outcome.settlement;
              return outcome.body;
          }
        },
      } as typeof tool;
      try {
        const result = await runTool(paidTool, args, { ctx, authenticate: refusedKey });
        return { kind: 'answer', result, ...(settlement ? { settlement } : {}) };
      } catch (err) {
        if (err instanceof PaymentStillRequired) return offer(err.reason);
        throw err;
      }
    },
  };
}
