import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { countPayment } from '../../metrics.js';
import { redeemSolanaPayment } from '../../payments/solana/redeem.js';
import { solanaTerms } from '../../payments/solana/terms.js';
import { SolanaRedeemRequest, SolanaRedeemResponse, SolanaTermsResponse } from '../../schemas/payments.js';
import type { AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';
import { CREDIT_KEY_SECURITY, creditAccountOf, creditKeyHook } from '../credit-key.js';

export const SOLANA_PATH = '/api/agent/deep-signal/solana';

/** The per-key rate-limit seam of paid routes (see routes/credits.ts). */
const PAID_ROUTE = { rateLimit: 'paid' } as unknown as FastifyContextConfig;

const notConfigured = () => new ServiceError('solana-not-configured', {}, { retryAfterSeconds: 3600 });

/**
 * GET and POST /api/agent/deep-signal/solana: buy a credit pack with a Solana stablecoin transfer. GET shows the
 * terms; POST redeems a transaction signature for the key that presents it. The verification and the exactly-once
 * grant live in src/payments/solana/.
 */
export async function solanaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const seller = ctx.services.solana;
  const urls = ctx.urls;
  let terms: ReturnType<typeof solanaTerms> | undefined;
  const requireConfigured = async () => {
    if (!seller) throw notConfigured();
  };

  r.get(
    SOLANA_PATH,
    {
      schema: {
        summary: 'Terms of a credit pack paid with a Solana stablecoin transfer',
        description:
          'Payment terms under `accepts`: cluster, token mint, the wallet to pay and its token account, the amount in raw units, the credits granted, the optional memo that binds a payment to one account, and how to redeem. 503 when the server has no Solana wallet configured.',
        tags: ['paid'],
        operationId: 'getSolanaPaymentTerms',
        response: {
          200: { description: 'The payment terms.', content: { 'application/json': { schema: SolanaTermsResponse } } },
          ...errorResponses(503),
        },
      },
    },
    async (_request, reply) => {
      if (!seller) throw notConfigured();
      reply.header('cache-control', 'public, max-age=300');
      terms ??= solanaTerms(seller.settings, urls.api(SOLANA_PATH), urls.api('/api/account/credits'));
      return terms;
    },
  );

  r.post(
    SOLANA_PATH,
    {
      config: PAID_ROUTE,
      onRequest: [requireConfigured, creditKeyHook(ctx)],
      schema: {
        summary: 'Redeem a Solana stablecoin payment for credits',
        description:
          'With the credit-pack key as a Bearer token and the transaction signature in the body: the transaction is read from the cluster (jsonParsed, at the configured commitment) and, when it moved at least the pack price of the configured mint into this service’s token account, the pack’s credits are added to the key’s account. 401 without a valid key; 400 for a malformed signature; 402 when the transaction is not found or not yet confirmed, or paid less than the price; 422 when it failed on-chain, paid another token or another recipient, or carries a `signal-service:<accountReference>` memo of another account; 409 when the signature was already redeemed (by anyone); 503 when Solana payments are not configured or the RPC node cannot be reached (with Retry-After).',
        tags: ['paid'],
        operationId: 'redeemSolanaPayment',
        security: CREDIT_KEY_SECURITY,
        body: SolanaRedeemRequest,
        response: {
          200: {
            description: 'Credits added.',
            headers: {
              'X-Credits-Balance': { type: 'integer', description: 'The key’s credit balance after the grant.' },
            },
            content: { 'application/json': { schema: SolanaRedeemResponse } },
          },
          ...errorResponses(400, 401, 402, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const account = creditAccountOf(request);
      const redemption = await redeemSolanaPayment(
        ctx.store.db,
        seller!.settings,
        seller!.fetchTransaction,
        account,
        request.body.signature,
      ).catch((err: unknown) => {
        // A payment the service turned down (not found, too small, wrong mint or payee, redeemed before). 400 and 503
        // are not verdicts on a payment: a malformed signature, or a node that did not answer.
        if (err instanceof ServiceError && [402, 409, 422].includes(err.status)) countPayment('solana', 'refused');
        throw err;
      });
      countPayment('solana', 'settled');
      ctx.log.info(
        { reqId: request.id, signature: redemption.signature, credits: redemption.creditsAdded, account: account.id },
        'solana payment redeemed',
      );
      reply.header('x-credits-balance', String(redemption.balance));
      return redemption;
    },
  );
}
