import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Feed } from 'feed';
import { ServiceError, fail, succeed, type Outcome } from '../../domain/errors.js';
import { DATA_LICENSE } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';
import type {
  AlertDelivery,
  AlertEvent,
  AlertSubscription,
  AlertSubscriptionRequest,
  AlertWatch,
  CreatedAlertSubscription,
} from '../../schemas/alerts.js';
import type { AlertSubscriptionsTable, Executor } from '../../store/schema.js';
import type { Selectable } from 'kysely';
import { checkedAddresses, RefusedAddressError, type AddressPolicy } from './address-guard.js';
import type { Sealer } from './delivery.js';
import { describeEvent, periodsToRecord, recordPeriodEvents, type RecordedPeriod } from './events.js';
import { watchesNothing } from './rules.js';
import { generateWebhookSecret } from './webhook.js';
import { untrackedSentence, watchingSentence, type TrackedStartups, type WatchedStartup } from './tracked.js';

/**
 * Alert subscriptions, for the holder of a credit-pack key (creating one spends no credit): create, list, read,
 * delete, the delivery log, the subscription's Atom feed (read with a token of its own, so a feed reader needs no
 * key), and unsubscribing from the e-mail digest with a signed token (no key, no login). Tokens are HMAC-SHA256 of
 * the subscription id under the alerts secret: nothing to store, and a token for one subscription opens no other.
 */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 50;
const FEED_EVENTS = 100;
const LOG_ROWS = 100;

export interface AlertsOptions {
  db: Executor;
  baseUrl: string;
  /** Seals webhook secrets (AES-256-GCM, src/payments/secret-box.ts, handed in by the composition root). */
  box: Sealer;
  /** Signs feed and unsubscribe tokens. */
  tokenSecret: string;
  policy: AddressPolicy;
  /** True when SMTP is configured: e-mail delivery is offered only then. */
  mail: boolean;
  /**
   * The startups that may be watched (the current period's): watch.startups entries are resolved by the strict name
   * rule and stored as logins, an untracked one refused. Absent (unit tests of delivery): logins kept as given.
   */
  tracked?: TrackedStartups;
}

type SubscriptionRow = Selectable<AlertSubscriptionsTable>;

function notFound(id: string): ServiceError {
  return new ServiceError('alert-subscription-not-found', { id });
}

export class AlertsService {
  constructor(private readonly options: AlertsOptions) {}

  private mac(purpose: string, id: string): string {
    return createHmac('sha256', this.options.tokenSecret).update(`${purpose}:${id}`).digest('base64url').slice(0, 32);
  }

  private verify(purpose: string, id: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(purpose, id));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  feedUrl(id: string): string {
    return siteUrls(this.options.baseUrl).api(
      `/api/alerts/subscriptions/${encodeURIComponent(id)}/feed.atom?token=${this.mac('feed', id)}`,
    );
  }

  unsubscribeToken(id: string): string {
    return `${id}.${this.mac('unsubscribe', id)}`;
  }

  unsubscribeUrl(id: string): string {
    return siteUrls(this.options.baseUrl).api(`/alerts/unsubscribe?token=${this.unsubscribeToken(id)}`);
  }

  private watching(watch: AlertWatch): WatchedStartup[] {
    const urls = siteUrls(this.options.baseUrl);
    return (watch.startups ?? []).map(
      (org) => this.options.tracked?.describe(org) ?? { org, name: org, url: urls.startup(org) },
    );
  }

  private view(row: SubscriptionRow): AlertSubscription {
    const watch = row.watch as AlertWatch;
    return {
      id: row.id,
      label: row.label,
      watch: row.watch as AlertWatch,
      webhookUrl: row.webhook_url,
      email: row.email,
      feedUrl: this.feedUrl(row.id),
      deliveriesUrl: siteUrls(this.options.baseUrl).api(
        `/api/alerts/subscriptions/${encodeURIComponent(row.id)}/deliveries`,
      ),
      createdAt: new Date(row.created_at).toISOString(),
      watching: this.watching(watch),
    };
  }

  /** watch.startups as tracked organisation logins, or the problem naming the first entry that is none. */
  private resolveStartups(entries: readonly string[]): Outcome<string[]> {
    const tracked = this.options.tracked;
    if (!tracked) return succeed([...new Set(entries.map((s) => s.toLowerCase()))]);
    const resolved = tracked.resolve(entries);
    if (resolved.ok) return succeed(resolved.startups.map((s) => s.org));
    if (resolved.reason === 'no-period')
      return fail(new ServiceError('alerts-no-period', {}, { retryAfterSeconds: 60 }));
    const message = untrackedSentence(resolved.entry, resolved.candidates);
    return fail(
      new ServiceError(
        'untracked-startup',
        { sentence: message },
        {
          extensions: {
            errors: [{ location: `body.watch.startups.${resolved.index}`, message }],
            ...(resolved.candidates.length ? { candidates: resolved.candidates } : {}),
          },
        },
      ),
    );
  }

  /** Refuses a webhook URL that cannot be delivered to (credentials in it, or a non-public address). */
  async checkWebhookUrl(raw: string): Promise<Outcome<string>> {
    const url = new URL(raw);
    if (url.username || url.password) {
      return fail(new ServiceError('webhook-credentials'));
    }
    url.hash = '';
    try {
      await checkedAddresses(url.hostname, this.options.policy);
    } catch (err) {
      return fail(
        err instanceof RefusedAddressError
          ? new ServiceError('webhook-address-refused', { reason: err.message })
          : new ServiceError('webhook-host-unresolved', { host: url.hostname, reason: (err as Error).message }),
      );
    }
    return succeed(url.toString());
  }

  async create(accountId: string, request: AlertSubscriptionRequest): Promise<Outcome<CreatedAlertSubscription>> {
    if (watchesNothing(request.watch)) {
      return fail(
        new ServiceError(
          'watches-nothing',
          {},
          { extensions: { errors: [{ location: 'body.watch', message: 'watches nothing' }] } },
        ),
      );
    }
    if (request.email && !this.options.mail) {
      return fail(new ServiceError('mail-off'));
    }
    let startups: string[] | undefined;
    if (request.watch.startups) {
      const resolved = this.resolveStartups(request.watch.startups);
      if (!resolved.ok) return resolved;
      startups = resolved.value;
    }
    let webhookUrl: string | null = null;
    if (request.webhookUrl) {
      const checked = await this.checkWebhookUrl(request.webhookUrl);
      if (!checked.ok) return checked;
      webhookUrl = checked.value;
    }
    const { db } = this.options;
    const count = await db
      .selectFrom('alert_subscriptions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_SUBSCRIPTIONS_PER_ACCOUNT) {
      return fail(new ServiceError('too-many-subscriptions', { max: MAX_SUBSCRIPTIONS_PER_ACCOUNT }));
    }
    const secret = webhookUrl ? generateWebhookSecret() : null;
    const watch: AlertWatch = { ...request.watch, ...(startups ? { startups } : {}) };
    const row = await db
      .insertInto('alert_subscriptions')
      .values({
        id: `sub_${randomBytes(10).toString('hex')}`,
        account_id: accountId,
        label: request.label ?? null,
        watch: JSON.stringify(watch),
        webhook_url: webhookUrl,
        webhook_secret_ciphertext: secret ? this.options.box.seal(secret) : null,
        email: request.email ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const view = this.view(row);
    return succeed({ ...view, confirmation: watchingSentence(watch, view.watching), webhookSecret: secret });
  }

  async list(accountId: string): Promise<AlertSubscription[]> {
    const rows = await this.options.db
      .selectFrom('alert_subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => this.view(row));
  }

  private async own(accountId: string, id: string): Promise<SubscriptionRow | undefined> {
    return this.options.db
      .selectFrom('alert_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async get(accountId: string, id: string): Promise<Outcome<AlertSubscription>> {
    const row = await this.own(accountId, id);
    return row ? succeed(this.view(row)) : fail(notFound(id));
  }

  /** Deletes the subscription with its events and delivery log (pending deliveries are never sent). */
  async delete(accountId: string, id: string): Promise<Outcome<true>> {
    const deleted = await this.options.db
      .deleteFrom('alert_subscriptions')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0 ? succeed(true) : fail(notFound(id));
  }

  /** The delivery log, newest first: webhook attempts per event and e-mail digests (with the mail outbox's state). */
  async deliveries(accountId: string, id: string): Promise<Outcome<AlertDelivery[]>> {
    if (!(await this.own(accountId, id))) return fail(notFound(id));
    const rows = await this.options.db
      .selectFrom('alert_deliveries as d')
      .leftJoin('mail_outbox as m', 'm.id', 'd.mail_outbox_id')
      .select([
        'd.id',
        'd.channel',
        'd.event_id',
        'd.period_slug',
        'd.target',
        'd.status',
        'd.attempts',
        'd.last_attempt_at',
        'd.last_status',
        'd.last_error',
        'd.next_attempt_at',
        'd.delivered_at',
        'd.created_at',
        'm.attempts as mail_attempts',
        'm.sent_at as mail_sent_at',
        'm.last_error as mail_error',
        'm.next_attempt_at as mail_next',
      ])
      .where('d.subscription_id', '=', id)
      .orderBy('d.id', 'desc')
      .limit(LOG_ROWS)
      .execute();
    const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
    return succeed(
      rows.map((r): AlertDelivery => {
        if (r.channel === 'email') {
          const sent = r.mail_sent_at ?? null;
          const attempts = r.mail_attempts ?? 0;
          return {
            id: String(r.id),
            channel: 'email',
            eventId: null,
            period: r.period_slug,
            target: r.target,
            status: sent ? 'delivered' : 'pending',
            attempts,
            lastAttemptAt: attempts > 0 ? iso(sent ?? r.last_attempt_at) : null,
            lastStatus: null,
            lastError: r.mail_error ?? null,
            nextAttemptAt: sent ? null : iso(r.mail_next),
            deliveredAt: iso(sent),
            createdAt: iso(r.created_at)!,
          };
        }
        return {
          id: String(r.id),
          channel: 'webhook',
          eventId: r.event_id,
          period: r.period_slug,
          target: r.target,
          status: r.status,
          attempts: r.attempts,
          lastAttemptAt: iso(r.last_attempt_at),
          lastStatus: r.last_status,
          lastError: r.last_error,
          nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
          deliveredAt: iso(r.delivered_at),
          createdAt: iso(r.created_at)!,
        };
      }),
    );
  }

  private async events(id: string, limit: number, period?: string): Promise<AlertEvent[]> {
    let query = this.options.db
      .selectFrom('alert_events')
      .select('payload')
      .where('subscription_id', '=', id)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit);
    if (period) query = query.where('period_slug', '=', period);
    return (await query.execute()).map((r) => r.payload as AlertEvent);
  }

  /** The Atom feed of a subscription's events, newest first; the token is the one in its feedUrl. */
  async feed(id: string, token: string | undefined): Promise<Outcome<string>> {
    const row =
      token && this.verify('feed', id, token)
        ? await this.options.db.selectFrom('alert_subscriptions').selectAll().where('id', '=', id).executeTakeFirst()
        : undefined;
    if (!row) {
      return fail(new ServiceError('alert-feed-not-found'));
    }
    const urls = siteUrls(this.options.baseUrl);
    const events = await this.events(id, FEED_EVENTS);
    const feed = new Feed({
      title: `Signal Service alerts${row.label ? `: ${row.label}` : ''}`,
      description: 'Changes of the startups this subscription watches, one entry per event, per published period.',
      id: `${urls.api('/api/alerts/subscriptions/')}${id}`,
      link: urls.home(),
      feedLinks: { atom: this.feedUrl(id) },
      updated: events[0] ? new Date(events[0].timestamp) : new Date(row.created_at),
      copyright: `${DATA_LICENSE.name} (${DATA_LICENSE.url})`,
      generator: 'Signal Service',
    });
    for (const event of events) {
      feed.addItem({
        title: describeEvent(event),
        id: `urn:signal-service:alert:${event.id}`,
        link: event.data.startup.url,
        date: new Date(event.timestamp),
        description: `${event.data.period.name} (${event.data.period.slug}), compared with ${event.data.previousPeriod.name}: ${describeEvent(event)}`,
        category: [{ name: event.type }],
      });
    }
    return succeed(feed.atom1());
  }

  /** What an unsubscribe token names, or undefined for a token that is not one of ours. */
  async unsubscribeTarget(
    token: string,
  ): Promise<{ id: string; email: string | null; label: string | null } | undefined> {
    const [id, mac, ...rest] = token.split('.');
    if (!id || !mac || rest.length > 0 || !this.verify('unsubscribe', id, mac)) return undefined;
    const row = await this.options.db
      .selectFrom('alert_subscriptions')
      .select(['id', 'email', 'label'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? undefined;
  }

  /**
   * Stops the e-mail digest of the subscription the token names (its webhook and feed are untouched). Doing it
   * twice is fine; a token that is not ours is a 404.
   */
  async unsubscribe(token: string): Promise<Outcome<{ id: string; label: string | null }>> {
    const target = await this.unsubscribeTarget(token);
    if (!target) return fail(new ServiceError('unsubscribe-link-invalid'));
    await this.options.db.updateTable('alert_subscriptions').set({ email: null }).where('id', '=', target.id).execute();
    return succeed({ id: target.id, label: target.label });
  }

  /** The digest e-mail of one subscription and period, written into the mail outbox inside the caller's transaction. */
  async queueDigest(
    trx: Executor,
    subscription: { id: string; email: string },
    period: { slug: string; name: string },
    deliveryId: number,
  ): Promise<void> {
    const events = await trx
      .selectFrom('alert_events')
      .select('payload')
      .where('subscription_id', '=', subscription.id)
      .where('period_slug', '=', period.slug)
      .orderBy('org_login')
      .orderBy('kind')
      .execute();
    const label = (
      await trx.selectFrom('alert_subscriptions').select('label').where('id', '=', subscription.id).executeTakeFirst()
    )?.label;
    const lines = events.map((e) => {
      const event = e.payload as AlertEvent;
      return `- ${describeEvent(event)}\n  ${event.data.startup.url}`;
    });
    const n = events.length;
    const text = [
      `${n} ${n === 1 ? 'change' : 'changes'} in ${period.name} (${period.slug}) for your alert subscription${label ? ` "${label}"` : ''}:`,
      '',
      ...lines,
      '',
      `All events of this subscription (Atom): ${this.feedUrl(subscription.id)}`,
      '',
      `Stop these e-mails (no login needed): ${this.unsubscribeUrl(subscription.id)}`,
    ].join('\n');
    const outbox = await trx
      .insertInto('mail_outbox')
      .values({
        kind: 'alert-digest',
        recipient: subscription.email,
        reference: `${subscription.id}:${period.slug}`,
        secret_ciphertext: null,
        subject: `Signal Service alerts: ${n} ${n === 1 ? 'change' : 'changes'} in ${period.name}`,
        body: text,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('alert_deliveries').set({ mail_outbox_id: outbox.id }).where('id', '=', deliveryId).execute();
  }

  /** The newest period this process has recorded (periodsToRecord starts after it). */
  private recordedUpTo: string | undefined;

  /**
   * Runs the event rules for the period now served and for every stored period before it that may have been
   * published while no server ran (events.ts periodsToRecord), oldest first.
   */
  async recordNewPeriods(slug: string): Promise<RecordedPeriod[]> {
    const recorded: RecordedPeriod[] = [];
    for (const each of await periodsToRecord(this.options.db, slug, this.recordedUpTo)) {
      recorded.push(await this.recordPeriod(each));
    }
    this.recordedUpTo = slug;
    return recorded;
  }

  /** Runs the event rules for a published period (see events.ts). */
  recordPeriod(slug: string): Promise<RecordedPeriod> {
    return recordPeriodEvents(this.options.db, slug, {
      baseUrl: this.options.baseUrl,
      ...(this.options.mail ? { queueDigest: (trx, sub, period, id) => this.queueDigest(trx, sub, period, id) } : {}),
    });
  }
}
