import type { FastifyContextConfig, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdempotencyKey, withPurchaseHelp } from '../../payments/paid-call.js';
import { paidDeepSignal } from '../../payments/paid-deep-signal.js';
import { creditState } from '../../payments/ledger.js';
import { DeepSignal, DeepSignalMiss, DeepSignalRequest } from '../../schemas/deep-signal.js';
import { CreditState } from '../../schemas/credits.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { CREDIT_KEY_SECURITY, creditAccountOf, creditKeyHook } from '../credit-key.js';
import { errorResponses } from '../openapi.js';
import { settleOnDelivery } from '../credit-hold.js';

/** The one Idempotency-Key rule (src/payments/paid-call.ts), as this route documents it. */
export const IdempotencyKeyHeader = IdempotencyKey.describe(
  'Optional. A retry with the same key and the same body within 24 hours returns the first answer byte for byte and is not charged again; the same key with another body → 422; a retry while the first is running waits for it (409 after 10 s).',
);

const balanceHeader = {
  'X-Credits-Balance': {
    description: 'Credits left on the key after this call.',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Each Deep Signal body is serialised once: bodies are shared and frozen (see deepSignal). */
const serialised = new WeakMap<object, string>();
function serialisedOnce(body: object): string {
  let text = serialised.get(body);
  if (text === undefined) serialised.set(body, (text = JSON.stringify(body)));
  return text;
}

/**
 * The seam for the per-key limiter of paid routes: the rate-limit plugin reads `config.rateLimit` (typed by that
 * plugin; merged here without declaring the type a second time).
 */
const PAID_ROUTE = { rateLimit: 'paid' } as unknown as FastifyContextConfig;

/**
 * The credit-pack surface: POST /api/agent/deep-signal and GET /api/account/credits. Routes only authenticate
 * (creditKeyHook), parse, call the core and send; the charging rules are in src/payments/paid-deep-signal.ts.
 * `config.rateLimit: 'paid'` is the seam for the per-key limiter.
 */
export async function creditsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const authenticate = creditKeyHook(ctx);
  const purchaseUrl = ctx.urls.api('/agents/credits');

  r.post(
    '/api/agent/deep-signal',
    {
      config: PAID_ROUTE,
      onRequest: authenticate,
      schema: {
        summary: 'Deep Signal: the enriched profile of one startup (1 credit per tracked startup)',
        description:
          'Paid with a credit-pack key. A tracked startup answers the DeepSignal body and consumes exactly 1 credit; an untracked one answers 200 `{found:false, charged:0}` and consumes nothing, even with 0 credits left. No credit left for a tracked startup → 402. Every answer to a valid key carries X-Credits-Balance. The body is validated before anything is charged.',
        tags: ['paid'],
        operationId: 'postDeepSignal',
        security: CREDIT_KEY_SECURITY,
        headers: z.object({ 'idempotency-key': IdempotencyKeyHeader.optional() }),
        body: DeepSignalRequest,
        response: {
          200: {
            description: 'The DeepSignal body, or `{found:false, charged:0}` for an untracked startup.',
            headers: balanceHeader,
            content: { 'application/json': { schema: z.union([DeepSignal, DeepSignalMiss]) } },
          },
          ...errorResponses(400, 401, 402, 409, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const account = creditAccountOf(request);
      const answer = await paidDeepSignal({
        db: ctx.store.db,
        snapshot: currentSnapshot(ctx),
        account,
        name: request.body.name,
        idempotencyKey: request.headers['idempotency-key'],
        holdSeconds: ctx.config.credits.holdSeconds,
      });
      const raw = reply as FastifyReply;
      if (answer.hold !== undefined) settleOnDelivery(ctx.store.db, raw.raw, answer.hold);
      raw.header('x-credits-balance', String(answer.balance));
      if (answer.replayed) raw.header('idempotent-replayed', 'true');
      // An error (no credit left, a reused or busy Idempotency-Key) is answered by the error handler as a problem.
      if (!answer.outcome.ok) throw withPurchaseHelp(answer.outcome.error, ctx.urls.base, answer.balance);
      return raw
        .code(200)
        .header('content-type', 'application/json; charset=utf-8')
        .serializer((body: unknown) => body as string)
        .send(serialisedOnce(answer.outcome.value));
    },
  );

  r.get(
    '/api/account/credits',
    {
      config: PAID_ROUTE,
      onRequest: authenticate,
      schema: {
        summary: 'Credit state of the presented credit-pack key',
        description:
          "The credit state of the key's account. The `X-Account-Reference` header names the account (not a secret): put it in a Solana payment as the memo `signal-service:<reference>` and only a key of this account can redeem that payment on POST /api/agent/deep-signal/solana. A payment without such a memo is redeemed by whichever key presents its signature first.",
        tags: ['paid'],
        operationId: 'getAccountCredits',
        security: CREDIT_KEY_SECURITY,
        response: {
          200: {
            description: 'Credit state.',
            headers: {
              ...balanceHeader,
              'X-Account-Reference': {
                description: 'The account reference for binding a Solana payment (memo `signal-service:<reference>`).',
                schema: { type: 'string' },
              },
            },
            content: { 'application/json': { schema: CreditState } },
          },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request, reply) => {
      const account = creditAccountOf(request);
      const state = (await creditState(ctx.store.db, account.id)) ?? account;
      reply.header('x-credits-balance', String(state.balance)).header('x-account-reference', account.id);
      return {
        balance: state.balance,
        purchased: state.purchased,
        consumed: state.consumed,
        lastConsumedAt: 'lastConsumedAt' in state ? (state.lastConsumedAt?.toISOString() ?? null) : null,
        purchaseUrl,
      };
    },
  );
}
