import type Stripe from 'stripe';
import { sql } from 'kysely';
import type { StripeConfig } from '../config.js';
import { DEEP_SIGNAL_CREDIT_PACK } from '../core/documents/pricing.js';
import { siteUrls } from '../domain/urls.js';
import { inTransaction } from '../store/periods.js';
import type { Executor } from '../store/schema.js';
import { issueKey } from './keys.js';
import { SecretBox } from './secret-box.js';

/**
 * Card checkout for the credit pack through Stripe Checkout (the official SDK), and its fulfilment from Stripe's
 * webhook: exactly one key with DEEP_SIGNAL_CREDIT_PACK.credits per paid Checkout Session, however often, late or
 * out of order Stripe delivers the events. The key, its grant, the "event handled" mark, the sealed copy for the
 * success page and the outbox message commit in one transaction; if anything fails the webhook answers 5xx and
 * Stripe delivers the event again.
 */
export const CHECKOUT_REASON = 'stripe-checkout';
const FULFILLING_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

export interface Checkout {
  stripe: Stripe;
  priceId: string;
  webhookSecret: string;
  box: SecretBox;
  baseUrl: string;
  /** Whether a key is also e-mailed (an SMTP server is configured). */
  mail: boolean;
}

/**
 * The checkout when Stripe is fully configured, otherwise undefined (the page says so, the API answers 503). The
 * Stripe SDK is loaded only then: a server without card checkout never compiles its 700 KB.
 */
export async function createCheckout(
  config: StripeConfig,
  site: { baseUrl: string; mail: boolean },
): Promise<Checkout | undefined> {
  if (!config.secretKey || !config.priceId || !config.webhookSecret) return undefined;
  const api = new URL(config.apiUrl);
  const { default: Stripe } = await import('stripe');
  const stripe = new Stripe(config.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? 443 : 80),
    protocol: api.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'signal-service' },
  });
  return {
    stripe,
    priceId: config.priceId,
    webhookSecret: config.webhookSecret,
    box: new SecretBox(config.secretKey),
    baseUrl: site.baseUrl,
    mail: site.mail,
  };
}

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/** Starts a Checkout Session for one pack; returns where to send the buyer. */
export async function startCheckout(
  checkout: Checkout,
  input: { email?: string | undefined } = {},
): Promise<{ id: string; url: string }> {
  const urls = siteUrls(checkout.baseUrl);
  const session = await checkout.stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price: checkout.priceId, quantity: 1 }],
    success_url: `${urls.api('/agents/credits/success')}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: urls.api('/agents/credits'),
    ...(input.email ? { customer_email: input.email } : {}),
    metadata: { pack: DEEP_SIGNAL_CREDIT_PACK.slug, credits: String(DEEP_SIGNAL_CREDIT_PACK.credits) },
  });
  if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
  return { id: session.id, url: session.url };
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Verifies the signature over the raw body (throws WebhookSignatureError) and returns the event. */
export function verifyWebhook(checkout: Checkout, rawBody: Buffer, signature: string | undefined): Stripe.Event {
  if (!signature) throw new WebhookSignatureError('missing Stripe-Signature header');
  try {
    return checkout.stripe.webhooks.constructEvent(rawBody, signature, checkout.webhookSecret);
  } catch (err) {
    throw new WebhookSignatureError((err as Error).message);
  }
}

export type WebhookOutcome = 'fulfilled' | 'duplicate-event' | 'already-fulfilled' | 'not-paid' | 'ignored';

/**
 * Handles one verified event. A fulfilling event for a paid session creates the key; an event seen before, a session
 * already fulfilled (completed and async_payment_succeeded both arrive for delayed payments, in either order) or an
 * unpaid session changes nothing. Returns what happened and, when a key was made, the outbox id to send now.
 */
export async function handleStripeEvent(
  db: Executor,
  checkout: Checkout,
  event: Stripe.Event,
): Promise<{ outcome: WebhookOutcome; mailId?: number | undefined }> {
  if (!FULFILLING_EVENTS.has(event.type)) return { outcome: 'ignored' };
  const session = event.data.object as Stripe.Checkout.Session;
  return inTransaction(db, async (trx) => {
    const marked = await trx
      .insertInto('stripe_events')
      .values({ id: event.id, type: event.type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!marked) return { outcome: 'duplicate-event' as const };
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') {
      return { outcome: 'not-paid' as const };
    }
    // One fulfilment per session, even when two events for it are handled at the same time on two instances.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`checkout\n${session.id}`}, 0))`.execute(trx);
    const done = await trx
      .selectFrom('checkout_deliveries')
      .select('session_id')
      .where('session_id', '=', session.id)
      .executeTakeFirst();
    if (done) return { outcome: 'already-fulfilled' as const };
    const email = session.customer_details?.email ?? session.customer_email ?? null;
    const created = await issueKey(trx, {
      credits: DEEP_SIGNAL_CREDIT_PACK.credits,
      email,
      label: 'card checkout',
      reason: CHECKOUT_REASON,
      reference: session.id,
    });
    await trx
      .insertInto('checkout_deliveries')
      .values({
        session_id: session.id,
        account_id: created.accountId,
        key_id: created.id,
        email,
        credits: DEEP_SIGNAL_CREDIT_PACK.credits,
        reveal_ciphertext: checkout.box.seal(created.key),
      })
      .execute();
    let mailId: number | undefined;
    if (email && checkout.mail) {
      const row = await trx
        .insertInto('mail_outbox')
        .values({
          kind: 'api-key',
          recipient: email,
          reference: session.id,
          secret_ciphertext: checkout.box.seal(created.key),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      mailId = Number(row.id);
    }
    return { outcome: 'fulfilled' as const, mailId };
  });
}

export type RevealResult =
  | { state: 'pending' }
  | { state: 'revealed'; key: string; credits: number; email: string | null }
  | { state: 'already-revealed'; credits: number; email: string | null };

/**
 * The success page's one look at the key: the sealed copy is taken and erased in one statement, so two tabs (or two
 * instances) cannot both show it.
 */
export async function revealKey(db: Executor, checkout: Checkout, sessionId: string): Promise<RevealResult> {
  const taken = await db
    .updateTable('checkout_deliveries')
    .set({ reveal_ciphertext: null, revealed_at: sql<Date>`now()` })
    .where('session_id', '=', sessionId)
    .where('reveal_ciphertext', 'is not', null)
    .returning([
      'credits',
      'email',
      sql<string>`(select reveal_ciphertext from checkout_deliveries d where d.session_id = ${sessionId})`.as('sealed'),
    ])
    .executeTakeFirst();
  if (taken)
    return { state: 'revealed', key: checkout.box.open(taken.sealed), credits: taken.credits, email: taken.email };
  const row = await db
    .selectFrom('checkout_deliveries')
    .select(['credits', 'email'])
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row ? { state: 'already-revealed', credits: row.credits, email: row.email } : { state: 'pending' };
}
