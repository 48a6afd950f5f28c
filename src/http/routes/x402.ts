import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deepSignal } from '../../core/deep-signal/index.js';
import { siteUrls } from '../../domain/urls.js';
import { httpFacilitator } from '../../payments/x402/facilitator.js';
import { countPayment } from '../../metrics.js';
import { payPerCall } from '../../payments/x402/pay-per-call.js';
import { paymentRequiredBody, paymentRequirements } from '../../payments/x402/requirements.js';
import {
  DeepSignal,
  DeepSignalMiss,
  DeepSignalRequest,
  type DeepSignal as DeepSignalBody,
  type DeepSignalMiss as DeepSignalMissBody,
} from '../../schemas/deep-signal.js';
import type { PaidLookup } from '../../payments/x402/pay-per-call.js';
import { X402PaymentRequired } from '../../schemas/payments.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { unavailable } from '../problem.js';

export const X402_PATH = '/api/agent/deep-signal/x402';

/**
 * POST /api/agent/deep-signal/x402: Deep Signal paid per call with x402 v1 (no key, no sign-up). The route parses,
 * hands the payment to the x402 core and shapes the outcome; the order of checks lives in `payPerCall`.
 */
export async function x402Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { x402 } = ctx.config;
  const { baseUrl } = ctx.config.server;
  const requirements = x402.payTo
    ? paymentRequirements({
        payTo: x402.payTo,
        network: x402.network,
        resource: siteUrls(baseUrl).api(X402_PATH),
        // Compact on purpose (it travels in every 402): the full schema is in the OpenAPI document.
        outputJsonSchema: {
          type: 'object',
          title: 'DeepSignal',
          description: `The full JSON Schema is components.schemas.DeepSignal in ${siteUrls(baseUrl).api('/api/openapi.json')}.`,
          required: Object.keys(DeepSignal.shape),
        },
      })
    : undefined;
  const facilitator = httpFacilitator({ url: x402.facilitatorUrl, headers: x402.facilitatorHeaders });

  r.post(
    X402_PATH,
    {
      schema: {
        summary: 'Deep Signal, paid per call with x402',
        description:
          'No key and no sign-up. Without an `X-PAYMENT` header the answer is 402 with x402 v1 payment requirements (USDC on Base or Base Sepolia, 0.19 USD). Sign the EIP-3009 authorization they describe and retry with `X-PAYMENT`; a tracked startup answers 200 with the DeepSignal body and `X-PAYMENT-RESPONSE` (base64 JSON: success, txHash, transaction, network, payer). An untracked startup answers 404 with `found: false` and nothing is settled. A malformed `X-PAYMENT` is a 400; an authorization already used, refused by the facilitator or failing to settle is a 402 again. 503 when the server has no x402 wallet configured or the facilitator cannot be reached.',
        tags: ['paid'],
        operationId: 'postDeepSignalX402',
        body: DeepSignalRequest,
        headers: z.object({
          'x-payment': z
            .string()
            .optional()
            .describe('base64 JSON x402 v1 payment payload (scheme "exact", EIP-3009 authorization).'),
        }),
        response: {
          200: {
            description: 'The DeepSignal body; the payment is settled.',
            headers: {
              'X-PAYMENT-RESPONSE': {
                type: 'string',
                description: 'base64 JSON {success, txHash, transaction, network, payer} of the settlement.',
              },
            },
            content: { 'application/json': { schema: DeepSignal } },
          },
          402: {
            description: 'Payment required (or the payment was refused): the x402 v1 requirements.',
            content: { 'application/json': { schema: X402PaymentRequired } },
          },
          404: {
            description: 'No tracked startup matches: nothing settled.',
            content: { 'application/json': { schema: DeepSignalMiss } },
          },
          ...errorResponses(400, 503),
        },
      },
    },
    async (request, reply) => {
      if (!requirements) {
        throw unavailable('x402 payments are not configured on this server (X402_PAY_TO is unset).', 3600);
      }
      const snapshot = currentSnapshot(ctx);
      const raw = request.headers['x-payment'];
      const header = Array.isArray(raw) ? raw.join(',') : raw;
      const lookup: PaidLookup<DeepSignalBody, DeepSignalMissBody> = async (name) => {
        const result = await deepSignal(snapshot, name);
        return result.found ? { found: true, startup: result.startup.login, body: result.body } : result;
      };
      const outcome = await payPerCall(
        { db: ctx.store.db, facilitator, requirements },
        header,
        request.body.name,
        lookup,
      );
      reply.header('cache-control', 'no-store');
      switch (outcome.kind) {
        case 'payment-required':
          // Without an X-PAYMENT header this is the price quote, not a refused payment.
          if (header !== undefined && header.trim() !== '') countPayment('x402', 'refused');
          return reply.code(402).send(paymentRequiredBody(requirements, outcome.error));
        case 'not-found':
          return reply.code(404).send(outcome.body);
        case 'paid':
          countPayment('x402', 'settled');
          ctx.log.info(
            {
              reqId: request.id,
              txHash: outcome.receipt.txHash,
              network: outcome.receipt.network,
              payer: outcome.receipt.payer,
            },
            'x402 payment settled',
          );
          return (
            reply
              .code(200)
              // Browsers may read it: X-PAYMENT-RESPONSE is among the common Access-Control-Expose-Headers.
              .header('x-payment-response', outcome.paymentResponse)
              .send(outcome.body)
          );
      }
    },
  );
}
