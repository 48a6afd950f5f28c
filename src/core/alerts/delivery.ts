import { sql } from 'kysely';
import type { Executor } from '../../store/schema.js';
import type { AddressPolicy } from './address-guard.js';
import { postWebhook, type WebhookAttempt } from './webhook.js';
import { startPoller, type Poller } from '../../runtime/poller.js';

/**
 * The webhook delivery queue. Each delivery is a row of `alert_deliveries` (written with its event, in the same
 * transaction), so the queue is as durable as the database and shared by every instance on it: a sender claims due
 * rows with `FOR UPDATE SKIP LOCKED` and a lease (the claim pushes the next attempt past the lease before sending,
 * so a sender that dies mid-way leaves the row due again afterwards, never lost), posts them, and records the
 * outcome. A failure is retried with a doubling delay (ALERTS_RETRY_MS, at most an hour) until it succeeds or
 * ALERTS_MAX_ATTEMPTS attempts have failed; then the delivery is `failed` in the log. A delivered row is never sent
 * again, so a receiver that was down gets each event once when it is back (the `webhook-id` lets it drop the rare
 * repeat of a 2xx whose record was lost with a crash).
 */

/** Something that opens what SecretBox sealed (the composition root passes the box; core never imports payments). */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

export interface DeliveryOptions {
  db: Executor;
  box: Sealer;
  policy: AddressPolicy;
  retryMs: number;
  maxAttempts: number;
  timeoutMs: number;
  /** Lease of a claimed delivery (longer than an attempt can take). */
  leaseMs?: number;
  /** Hears every attempt (logs, metrics). */
  onAttempt?: (info: { deliveryId: number; attempt: number; result: WebhookAttempt; final: boolean }) => void;
}

const BATCH = 20;
const MAX_DELAY_MS = 3_600_000;

export function deliveryRetryDelay(baseMs: number, attempts: number): number {
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

const seconds = (ms: number) => ms / 1000;

/** Sends every due webhook delivery once; returns how many were delivered and how many attempts failed. */
export async function deliverDueWebhooks(options: DeliveryOptions): Promise<{ delivered: number; failed: number }> {
  const { db } = options;
  const lease = options.leaseMs ?? options.timeoutMs * 2 + 30_000;
  const claimed = await sql<{
    id: string;
    subscription_id: string;
    event_id: string;
    attempts: number;
  }>`
    update alert_deliveries
       set attempts = attempts + 1,
           last_attempt_at = now(),
           next_attempt_at = now() + make_interval(secs => ${seconds(lease)})
     where id in (
       select id from alert_deliveries
        where status = 'pending' and channel = 'webhook' and next_attempt_at <= now()
        order by id
        limit ${BATCH}
        for update skip locked)
    returning id, subscription_id, event_id, attempts`.execute(db);
  let delivered = 0;
  let failed = 0;
  // The batch is sent at once, not one receiver after another: every attempt ends within `timeoutMs`, so the whole
  // batch is recorded well inside its lease (a slow receiver neither outlasts the lease, which would let another
  // instance claim and send the same rows again, nor holds up other subscriptions' deliveries).
  await Promise.all(
    claimed.rows.map(async (row) => {
      const id = Number(row.id);
      const found = await db
        .selectFrom('alert_events as e')
        .innerJoin('alert_subscriptions as s', 's.id', 'e.subscription_id')
        .select(['e.payload', 's.webhook_url', 's.webhook_secret_ciphertext'])
        .where('e.id', '=', row.event_id)
        .executeTakeFirst();
      let result: WebhookAttempt;
      if (!found?.webhook_url || !found.webhook_secret_ciphertext) {
        result = { ok: false, status: null, error: 'the subscription no longer has a webhook' };
      } else {
        result = await postWebhook(
          {
            url: found.webhook_url,
            id: row.event_id,
            body: JSON.stringify(found.payload),
            secret: options.box.open(found.webhook_secret_ciphertext),
          },
          options.policy,
          { timeoutMs: options.timeoutMs },
        );
      }
      const final = result.ok || row.attempts >= options.maxAttempts || !found?.webhook_url;
      if (result.ok) delivered++;
      else failed++;
      const delay = deliveryRetryDelay(options.retryMs, row.attempts);
      await db
        .updateTable('alert_deliveries')
        .set({
          status: result.ok ? 'delivered' : final ? 'failed' : 'pending',
          last_status: result.status,
          last_error: result.error,
          delivered_at: result.ok ? sql<Date>`now()` : null,
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${final ? 0 : seconds(delay)})`,
        })
        .where('id', '=', id)
        // Only this claim's outcome is recorded: a row claimed again since (its lease ran out) belongs to that claim.
        .where('attempts', '=', row.attempts)
        .execute();
      options.onAttempt?.({ deliveryId: id, attempt: row.attempts, result, final });
    }),
  );
  return { delivered, failed };
}

/** Runs the queue every `retryMs` (at most every minute), and at once when kicked (see runtime/poller.ts). */
export function startWebhookQueue(options: DeliveryOptions & { onError?: (err: unknown) => void }): Poller {
  return startPoller(
    async () => {
      // A pass that delivered or failed anything suggests more are due: take the next batch at once.
      const { delivered, failed } = await deliverDueWebhooks(options);
      return delivered + failed > 0;
    },
    Math.min(options.retryMs, 60_000),
    (err) => options.onError?.(err),
  );
}
