import type { Logger } from 'pino';
import { sql } from 'kysely';
import type { MailConfig } from '../config.js';
import { DEEP_SIGNAL_CREDIT_PACK } from '../core/documents/pricing.js';
import { siteUrls } from '../domain/urls.js';
import type { Executor } from '../store/schema.js';
import type { SecretBox } from './secret-box.js';
import { startPoller, type Poller } from '../runtime/poller.js';

/**
 * Key delivery by e-mail through a durable outbox. The webhook writes the message (the key sealed) in the same
 * transaction as the key, so nothing is lost if the mail server is down or the process dies; a sender on every
 * instance claims due messages (`FOR UPDATE SKIP LOCKED`, and a lease: the claim pushes the next attempt forward
 * before sending), sends them with nodemailer over SMTP_URL and erases the sealed key once the server accepted it.
 * A failure is retried with a doubling delay (MAIL_RETRY_MS, at most an hour), without end: the key stays valid and
 * can also be revealed once on the checkout success page.
 */
const MAX_DELAY_MS = 3_600_000;
const BATCH = 10;

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

/** The mailer when SMTP_URL is set (nodemailer is loaded only then), otherwise undefined. */
export async function createMailer(config: Pick<MailConfig, 'smtpUrl' | 'from'>): Promise<Mailer | undefined> {
  if (!config.smtpUrl) return undefined;
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
    },
    close: () => transport.close(),
  };
}

export function keyMessage(baseUrl: string, key: string): { subject: string; text: string } {
  const urls = siteUrls(baseUrl);
  return {
    subject: 'Your Signal Service credit-pack key',
    text: [
      `Thank you for buying a Deep Signal credit pack (${DEEP_SIGNAL_CREDIT_PACK.credits} credits).`,
      '',
      'Your key:',
      '',
      `    ${key}`,
      '',
      'Keep it secret: it spends your credits. We store only a hash of it and cannot show it again.',
      '',
      'Use it as a Bearer token:',
      '',
      `    curl -X POST ${urls.api('/api/agent/deep-signal')} \\`,
      `      -H 'Authorization: Bearer <your key>' -H 'Idempotency-Key: <a new id per call>' \\`,
      `      -H 'Content-Type: application/json' -d '{"name":"<startup>"}'`,
      '',
      'Send the same Idempotency-Key again when an answer never arrived: the call is answered again and charged once.',
      '',
      `A call that matches a tracked startup costs 1 credit; a miss costs nothing; credits do not expire.`,
      `Your balance: ${urls.api('/api/account/credits')} (same header). More credits: ${urls.api('/agents/credits')}`,
    ].join('\n'),
  };
}

export function retryDelay(baseMs: number, attempts: number): number {
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

export interface OutboxOptions {
  db: Executor;
  mailer: Mailer;
  /** Opens the sealed keys of key e-mails; absent when card checkout is off (then only ready-made messages are sent). */
  box?: SecretBox | undefined;
  baseUrl: string;
  retryMs: number;
  logger?: Pick<Logger, 'warn'> | { warn(obj: object, msg: string): void } | undefined;
}

/** Sends every due message once; returns how many were sent. */
export async function deliverDueMail(options: OutboxOptions): Promise<{ sent: number; failed: number }> {
  const { db, retryMs } = options;
  // Claim: the lease is the first retry delay; a sender that dies mid-way leaves the message due again after it.
  const claimed = await sql<{
    id: number;
    recipient: string;
    secret_ciphertext: string | null;
    subject: string | null;
    body: string | null;
    attempts: number;
  }>`
    update mail_outbox
       set attempts = attempts + 1,
           next_attempt_at = now() + make_interval(secs => ${retryMs / 1000})
     where id in (
       select id from mail_outbox
        where sent_at is null and next_attempt_at <= now()
        order by id
        limit ${BATCH}
        for update skip locked)
    returning id, recipient, secret_ciphertext, subject, body, attempts`.execute(db);
  let sent = 0;
  let failed = 0;
  for (const row of claimed.rows) {
    try {
      if (row.subject !== null && row.body !== null) {
        // A ready-made message (an alert digest).
        await options.mailer.send({ to: row.recipient, subject: row.subject, text: row.body });
      } else {
        if (!row.secret_ciphertext || !options.box) throw new Error('the message has no key to send');
        const key = options.box.open(row.secret_ciphertext);
        await options.mailer.send({ to: row.recipient, ...keyMessage(options.baseUrl, key) });
      }
      await db
        .updateTable('mail_outbox')
        .set({ sent_at: sql<Date>`now()`, secret_ciphertext: null, last_error: null })
        .where('id', '=', row.id)
        .execute();
      sent++;
    } catch (err) {
      failed++;
      const delay = retryDelay(retryMs, row.attempts);
      const reason = (err as Error).message.slice(0, 500);
      await db
        .updateTable('mail_outbox')
        .set({ last_error: reason, next_attempt_at: sql<Date>`now() + make_interval(secs => ${delay / 1000})` })
        .where('id', '=', row.id)
        .execute();
      options.logger?.warn(
        { outboxId: row.id, attempts: row.attempts, retryInMs: delay, reason },
        'e-mail not sent; will retry',
      );
    }
  }
  return { sent, failed };
}

/** Runs the outbox every `retryMs`, and at once when kicked (see runtime/poller.ts); stopping closes the mailer. */
export function startMailOutbox(options: OutboxOptions): Poller {
  const poller = startPoller(
    async () => {
      await deliverDueMail(options);
    },
    options.retryMs,
    (err) => options.logger?.warn({ err }, 'mail outbox pass failed'),
  );
  return {
    kick: poller.kick,
    async stop() {
      await poller.stop();
      options.mailer.close();
    },
  };
}
