import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countPayment } from '../../metrics.js';
import { deepSignalLookup, deepSignalSeller, X402_DEEP_SIGNAL_PATH } from '../../payments/x402/deep-signal.js';
import { payPerCall } from '../../payments/x402/pay-per-call.js';
import {
  encodePaymentRequiredHeader,
  paymentRequiredBody,
  paymentRequiredV2,
} from '../../payments/x402/requirements.js';
import { DeepSignal, DeepSignalMiss, DeepSignalRequest } from '../../schemas/deep-signal.js';
import { X402PaymentRequired, X402PaymentRequiredV2, X402PaymentResponseV2 } from '../../schemas/payments.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { EXPOSED_HEADERS } from '../plugins/headers.js';
import { ServiceError } from '../../domain/errors.js';

export const X402_PATH = X402_DEEP_SIGNAL_PATH;

/** The common exposed headers plus x402 v2's, so a browser client can read them. */
const EXPOSE_WITH_V2 = [...EXPOSED_HEADERS, 'PAYMENT-REQUIRED', 'PAYMENT-RESPONSE'].join(', ');

/** A base64 JSON header's JSON Schema (OpenAPI 3.1: JSON Schema 2020-12 `contentSchema`). */
function base64Json(schema: z.ZodType, description: string) {
  const {
    $schema: _s,
    id: _id,
    ...json
  } = z.toJSONSchema(schema, { target: 'draft-2020-12', metadata: z.registry() }) as Record<string, unknown>;
  return {
    type: 'string',
    contentEncoding: 'base64',
    contentMediaType: 'application/json',
    contentSchema: json,
    description,
  };
}

/**
 * POST /api/agent/deep-signal/x402: Deep Signal paid per call with x402 v1 (no key, no sign-up). The route parses,
 * hands the payment to the x402 core and shapes the outcome; the order of checks lives in `payPerCall`.
 */
export async function x402Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { x402 } = ctx.config;
  // The output schema is compact on purpose (it travels in every 402): the full one is in the OpenAPI document.
  const seller = deepSignalSeller(x402, ctx.services.x402, ctx.urls.api(X402_PATH), {
    type: 'object',
    title: 'DeepSignal',
    description: `The full JSON Schema is components.schemas.DeepSignal in ${ctx.urls.api('/api/openapi.json')}.`,
    required: Object.keys(DeepSignal.shape),
  });

  r.post(
    X402_PATH,
    {
      schema: {
        summary: 'Deep Signal, paid per call with x402 (protocol version 1 or 2)',
        description:
          'No key and no sign-up. Without a payment header the answer is 402: the body holds the x402 v1 payment requirements (USDC on Base or Base Sepolia, 0.19 USD), and the `PAYMENT-REQUIRED` header the same offer in x402 v2 (base64 JSON, network as a CAIP-2 id, price as `amount`). Sign the EIP-3009 authorization they describe and retry with `X-PAYMENT` (v1) or `PAYMENT-SIGNATURE` (v2, its `accepted` entry copied from the offer); a tracked startup answers 200 with the DeepSignal body and `X-PAYMENT-RESPONSE` (v1: base64 JSON success, txHash, transaction, network, payer) or `PAYMENT-RESPONSE` (v2: base64 JSON success, transaction, network, payer, amount). An untracked startup answers 404 with `found: false` and nothing is settled. Each authorization is settled at most once and answered at most once: if its answer was lost (a timeout, a crash, a 503), retry with the same payment header and the same body: a payment that was settled is answered without being settled again, one that was not is settled now. A malformed payment header, or both headers at once, is a 400; an authorization already used, refused by the facilitator or failing to settle is a 402 again. 503 (with Retry-After) when the server has no x402 wallet configured, the facilitator cannot be reached, or a settlement could not be confirmed yet.',
        tags: ['paid'],
        operationId: 'postDeepSignalX402',
        body: DeepSignalRequest,
        headers: z.object({
          'x-payment': z
            .string()
            .optional()
            .describe('base64 JSON x402 v1 payment payload (scheme "exact", EIP-3009 authorization).'),
          'payment-signature': z
            .string()
            .optional()
            .describe(
              'base64 JSON x402 v2 payment payload: {x402Version: 2, resource?, accepted (the offer chosen from PAYMENT-REQUIRED), payload: {signature, authorization}}.',
            ),
        }),
        response: {
          200: {
            description: 'The DeepSignal body; the payment is settled.',
            headers: {
              'X-PAYMENT-RESPONSE': {
                type: 'string',
                description:
                  'With X-PAYMENT (v1): base64 JSON {success, txHash, transaction, network, payer} of the settlement.',
              },
              'PAYMENT-RESPONSE': base64Json(
                X402PaymentResponseV2,
                'With PAYMENT-SIGNATURE (v2): base64 JSON of the settlement.',
              ),
            },
            content: { 'application/json': { schema: DeepSignal } },
          },
          402: {
            description:
              'Payment required (or the payment was refused): the x402 v1 requirements in the body, the v2 ones in PAYMENT-REQUIRED.',
            headers: {
              'PAYMENT-REQUIRED': base64Json(X402PaymentRequiredV2, 'The x402 v2 offer (base64 JSON).'),
            },
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
      if (!seller) {
        throw new ServiceError('x402-not-configured', {}, { retryAfterSeconds: 3600 });
      }
      const { requirements } = seller;
      const snapshot = currentSnapshot(ctx);
      const headerOf = (name: string) => {
        const raw = request.headers[name];
        return Array.isArray(raw) ? raw.join(',') : raw;
      };
      const headers = { xPayment: headerOf('x-payment'), paymentSignature: headerOf('payment-signature') };
      reply.header('access-control-expose-headers', EXPOSE_WITH_V2);
      const outcome = await payPerCall(
        { db: ctx.store.db, ...seller },
        headers,
        request.body.name,
        deepSignalLookup(snapshot),
      );
      reply.header('cache-control', 'no-store');
      switch (outcome.kind) {
        case 'payment-required': {
          // Without a payment header this is the price quote, not a refused payment.
          const paying = [headers.xPayment, headers.paymentSignature].some((h) => h !== undefined && h.trim() !== '');
          if (paying) countPayment('x402', 'refused');
          return reply
            .code(402)
            .header('payment-required', encodePaymentRequiredHeader(paymentRequiredV2(requirements, outcome.error)))
            .send(paymentRequiredBody(requirements, outcome.error));
        }
        case 'not-found':
          return reply.code(404).send(outcome.body);
        case 'paid':
          countPayment('x402', outcome.redelivered ? 'redelivered' : 'settled');
          ctx.log.info(
            {
              reqId: request.id,
              txHash: outcome.receipt.txHash,
              network: outcome.receipt.network,
              payer: outcome.receipt.payer,
              redelivered: outcome.redelivered,
            },
            outcome.redelivered ? 'x402 paid answer delivered on retry' : 'x402 payment settled',
          );
          return reply
            .code(200)
            .header(outcome.responseHeader.toLowerCase(), outcome.paymentResponse)
            .send(outcome.body);
      }
    },
  );
}
