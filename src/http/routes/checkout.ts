import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  handleStripeEvent,
  isSessionId,
  revealKey,
  startCheckout,
  verifyWebhook,
  WebhookSignatureError,
} from '../../payments/checkout.js';
import { countPayment } from '../../metrics.js';
import type { SiteAssets } from '../../web/assets.js';
import { CHECKOUT_CSP, creditsPage, successPage } from '../../web/pages/payments.js';
import type { AppContext } from '../context.js';
import { errorResponses, textContent } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';

const HTML = 'text/html; charset=utf-8';

const CheckoutRequest = z
  .object({
    email: z
      .union([z.email().max(254), z.literal('')])
      .optional()
      .describe('Where to e-mail the key (optional).'),
  })
  .strict();

const CheckoutSession = z.object({ id: z.string(), url: z.url() }).meta({ id: 'CheckoutSession' });

/**
 * Card checkout: the pack page, starting a Stripe Checkout Session, the success page (reveals the key once) and
 * Stripe's webhook. Also runs the mail outbox of this instance. Rules live in src/payments/checkout.ts and mail.ts.
 */
export async function checkoutRoutes(app: FastifyInstance, ctx: AppContext, assets: SiteAssets): Promise<void> {
  const { checkout } = ctx.services;
  const site = { baseUrl: ctx.urls.base, assets };
  const pageHtml = creditsPage({
    ...site,
    checkoutAvailable: Boolean(checkout),
    mail: ctx.services.mailsKeys,
    operatorContact: ctx.config.server.operatorContact,
    x402: Boolean(ctx.config.x402.payTo),
    solana: Boolean(ctx.config.solana.payTo),
  });

  // Own scope: form bodies are parsed here only, and the webhook reads its JSON body as raw bytes for the signature.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      if (request.url.startsWith('/api/webhooks/')) return done(null, body);
      try {
        done(null, (body as Buffer).length ? JSON.parse((body as Buffer).toString('utf8')) : undefined);
      } catch {
        done(new ServiceError('body-not-json'), undefined);
      }
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/agents/credits',
      {
        schema: {
          summary: 'The credit-pack page (HTML): buy 100 Deep Signal credits by card',
          tags: ['paid'],
          operationId: 'getCreditsPage',
          response: {
            200: textContent('text/html', 'The page; without Stripe configured it says card checkout is unavailable.'),
          },
        },
      },
      (_request, reply) => {
        reply
          .header('content-type', HTML)
          .header('content-security-policy', CHECKOUT_CSP)
          .header('cache-control', 'no-cache')
          .send(pageHtml);
      },
    );

    r.post(
      '/api/checkout/sessions',
      {
        schema: {
          summary: 'Start a Stripe Checkout Session for one credit pack',
          description:
            'Form or JSON body with an optional `email`. A form post is redirected (303) to Stripe Checkout; a JSON request gets 201 `{id, url}`. 503 when card checkout is not configured.',
          tags: ['paid'],
          operationId: 'postCheckoutSession',
          body: CheckoutRequest.optional(),
          response: {
            201: { description: 'The session.', content: { 'application/json': { schema: CheckoutSession } } },
            303: {
              description: 'Form posts: redirect to Stripe Checkout (Location), with the session as the body.',
              content: { 'application/json': { schema: CheckoutSession } },
            },
            ...errorResponses(400, 415, 502, 503),
          },
        },
      },
      async (request, reply) => {
        if (!checkout) throw new ServiceError('checkout-not-configured', {}, { retryAfterSeconds: 3600 });
        let session: { id: string; url: string };
        try {
          session = await startCheckout(checkout, { email: request.body?.email || undefined });
        } catch (err) {
          ctx.log.warn(
            { reqId: request.id, err: { message: (err as Error).message } },
            'could not start a Stripe Checkout Session',
          );
          throw new ServiceError('checkout-provider-silent');
        }
        const raw = reply as FastifyReply;
        raw.header('cache-control', 'no-store');
        if (String(request.headers['content-type'] ?? '').startsWith('application/json')) {
          return raw.code(201).send(session);
        }
        return raw.code(303).header('location', session.url).send(session);
      },
    );

    r.get(
      '/agents/credits/success',
      {
        schema: {
          summary: 'After checkout: shows the new key once (HTML)',
          tags: ['paid'],
          operationId: 'getCheckoutSuccess',
          querystring: z.object({ session_id: z.string().min(1).max(255) }),
          response: { 200: textContent('text/html', 'The key (once), or a notice.'), ...errorResponses(400, 503) },
        },
      },
      async (request, reply) => {
        if (!checkout) throw new ServiceError('checkout-not-configured', {}, { retryAfterSeconds: 3600 });
        if (!isSessionId(request.query.session_id)) {
          throw new ServiceError('not-a-checkout-session');
        }
        const result = await revealKey(ctx.store.db, checkout, request.query.session_id);
        reply
          .header('content-type', HTML)
          .header('content-security-policy', CHECKOUT_CSP)
          .header('cache-control', 'no-store')
          .send(successPage(site, result));
      },
    );

    r.post(
      '/api/webhooks/stripe',
      {
        schema: {
          summary: 'Stripe webhook (signed): fulfils paid Checkout Sessions exactly once',
          tags: ['paid'],
          operationId: 'postStripeWebhook',
          response: {
            200: {
              description: 'Event received.',
              content: { 'application/json': { schema: z.object({ received: z.literal(true), outcome: z.string() }) } },
            },
            ...errorResponses(400, 415, 503),
          },
        },
      },
      async (request, reply) => {
        if (!checkout) throw new ServiceError('checkout-not-configured', {}, { retryAfterSeconds: 3600 });
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) throw new ServiceError('webhook-event-not-raw');
        const signature = request.headers['stripe-signature'];
        let event;
        try {
          event = verifyWebhook(checkout, raw, typeof signature === 'string' ? signature : undefined);
        } catch (err) {
          if (err instanceof WebhookSignatureError) {
            throw new ServiceError('stripe-signature-invalid');
          }
          throw err;
        }
        const { outcome, mailId } = await handleStripeEvent(ctx.store.db, checkout, event);
        if (outcome === 'fulfilled') countPayment('card', 'settled');
        if (mailId !== undefined) ctx.services.kickMail();
        ctx.log.info({ reqId: request.id, event: event.id, type: event.type, outcome }, 'stripe event');
        (reply as FastifyReply).header('cache-control', 'no-store').send({ received: true, outcome });
      },
    );
  });
}
