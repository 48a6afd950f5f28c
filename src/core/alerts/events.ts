import { randomBytes } from 'node:crypto';
import { isFinding, signalLabel } from '../../domain/signal-label.js';
import { siteUrls } from '../../domain/urls.js';
import { canonicalStartup } from '../../schemas/signals.js';
import type { AlertEvent, AlertWatch } from '../../schemas/alerts.js';
import type { SectorSlug } from '../../schemas/enums.js';
import { inTransaction, listPeriods, periodStartups } from '../../store/periods.js';
import type { Executor, PeriodRow } from '../../store/schema.js';
import { changesFor, type Change, type PeriodState, type StartupState } from './rules.js';

/**
 * A published period becomes events: the rules (rules.ts) run over it and the period before it for every
 * subscription created before it was published, and each change is recorded once — the unique key (subscription,
 * period, type, startup) makes a second run, on another instance or after a restart, record nothing new. In the
 * same transaction each new event gets its webhook delivery, and a subscription with an e-mail address its digest
 * (AlertsService in service.ts), so an event is never recorded without what delivers it.
 */

export function newEventId(): string {
  return `msg_${randomBytes(12).toString('hex')}`;
}

async function periodState(db: Executor, period: PeriodRow): Promise<PeriodState> {
  const startups = new Map<string, StartupState>();
  for (const row of await periodStartups(db, period.slug)) {
    const startup = canonicalStartup(row.startup);
    startups.set(row.org_login.toLowerCase(), {
      login: row.org_login,
      name: startup.name,
      sector: row.sector as SectorSlug,
      rank: row.rank_overall,
      signalType: startup.signalType,
      finding: isFinding(signalLabel(startup.signalType, row.metrics as Record<string, unknown>)),
      commitVelocityChange: startup.commitVelocityChange,
      contributorGrowth: startup.contributorGrowth,
    });
  }
  return { slug: period.slug, name: period.name, startups };
}

function stateOf(s: StartupState | undefined) {
  return s
    ? {
        rank: s.rank,
        signalType: s.signalType,
        commitVelocityChange: s.commitVelocityChange,
        contributorGrowth: s.contributorGrowth,
      }
    : null;
}

export function eventBody(
  baseUrl: string,
  id: string,
  subscriptionId: string,
  recordedAt: Date,
  change: Change,
  previous: { slug: string; name: string },
  current: { slug: string; name: string },
): AlertEvent {
  const s = (change.after ?? change.before)!;
  return {
    id,
    type: change.type,
    timestamp: recordedAt.toISOString(),
    subscriptionId,
    data: {
      period: { slug: current.slug, name: current.name },
      previousPeriod: { slug: previous.slug, name: previous.name },
      startup: { org: s.login, name: s.name, sector: s.sector, url: siteUrls(baseUrl).startup(s.login) },
      before: stateOf(change.before),
      after: stateOf(change.after),
      ...(change.threshold !== undefined ? { threshold: change.threshold, direction: change.direction! } : {}),
    },
  };
}

/** One line a person reads: what changed for whom. */
export function describeEvent(event: AlertEvent): string {
  const { startup, before, after, threshold, direction } = event.data;
  switch (event.type) {
    case 'trending.entered':
      return `${startup.name} entered the trending top 20 at rank ${after?.rank ?? '?'}${before?.rank ? ` (was ${before.rank})` : ''}.`;
    case 'trending.left':
      return `${startup.name} left the trending top 20 (was rank ${before?.rank ?? '?'}${after?.rank ? `, now ${after.rank}` : after ? ', now unranked' : ', no longer tracked'}).`;
    case 'signal_type.changed':
      return `${startup.name}'s signal type changed from ${before?.signalType} to ${after?.signalType}.`;
    case 'commit_velocity.crossed':
      return `${startup.name}'s commit velocity change went ${direction === 'up' ? 'above' : 'below'} ${threshold}%: ${before?.commitVelocityChange} → ${after?.commitVelocityChange}.`;
    case 'contributor_growth.crossed':
      return `${startup.name}'s contributor growth went ${direction === 'up' ? 'above' : 'below'} ${threshold}%: ${before?.contributorGrowth} → ${after?.contributorGrowth}.`;
  }
}

export interface RecordedPeriod {
  period: string;
  /** Events newly recorded by this run (0 when another run recorded them first). */
  events: number;
  /** Subscriptions that got a new digest e-mail. */
  digests: number;
}

export interface RecordOptions {
  baseUrl: string;
  /** Writes the digest of one subscription and period into the mail outbox (service.ts); absent without SMTP. */
  queueDigest?: (
    trx: Executor,
    subscription: { id: string; email: string },
    period: { slug: string; name: string },
    deliveryId: number,
  ) => Promise<void>;
}

/** At most this many stored periods are caught up at once: a server down longer records the newest ones. */
export const CATCH_UP_PERIODS = 13;

/**
 * The stored periods up to `slug` whose events may not be recorded yet, oldest first: those after `after` (the last
 * period this process recorded; at start, none), published after the oldest subscription was created, at most
 * CATCH_UP_PERIODS of them, and always `slug` itself (a republished week may change). Recording is idempotent, so a
 * period recorded by another instance or an earlier start costs only its reading.
 */
export async function periodsToRecord(db: Executor, slug: string, after?: string): Promise<string[]> {
  const periods = await listPeriods(db);
  const end = periods.findIndex((p) => p.slug === slug);
  if (end <= 0) return end === 0 ? [slug] : [];
  const oldest = await db
    .selectFrom('alert_subscriptions')
    .select('created_at')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (!oldest) return [slug];
  const from = Math.max(
    1,
    after === undefined ? 1 : periods.findIndex((p) => p.slug === after) + 1,
    end + 1 - CATCH_UP_PERIODS,
  );
  const since = new Date(oldest.created_at).getTime();
  const due = periods
    .slice(from, end)
    .filter((p) => new Date(p.published_at).getTime() > since)
    .map((p) => p.slug);
  return [...due, slug];
}

/** Records the events of the period `slug` (against the stored period before it) for every subscription. */
export async function recordPeriodEvents(db: Executor, slug: string, options: RecordOptions): Promise<RecordedPeriod> {
  const periods = await listPeriods(db);
  const index = periods.findIndex((p) => p.slug === slug);
  const result: RecordedPeriod = { period: slug, events: 0, digests: 0 };
  if (index <= 0) return result; // unknown, or the first period: nothing to compare with
  const currentRow = periods[index]!;
  const subscriptions = await db
    .selectFrom('alert_subscriptions')
    .select(['id', 'watch', 'webhook_url', 'email'])
    .where('created_at', '<', new Date(currentRow.published_at))
    .orderBy('id')
    .execute();
  if (subscriptions.length === 0) return result;
  const [previous, current] = [await periodState(db, periods[index - 1]!), await periodState(db, currentRow)];
  for (const sub of subscriptions) {
    const changes = changesFor(sub.watch as AlertWatch, previous, current);
    if (changes.length === 0) continue;
    await inTransaction(db, async (trx) => {
      let added = 0;
      for (const change of changes) {
        const id = newEventId();
        const recordedAt = new Date();
        const body = eventBody(options.baseUrl, id, sub.id, recordedAt, change, previous, current);
        const inserted = await trx
          .insertInto('alert_events')
          .values({
            id,
            subscription_id: sub.id,
            period_slug: current.slug,
            kind: change.type,
            org_login: change.login.toLowerCase(),
            payload: JSON.stringify(body),
            created_at: recordedAt,
          } as never)
          .onConflict((oc) => oc.constraint('alert_events_once').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) continue;
        added++;
        if (sub.webhook_url) {
          await trx
            .insertInto('alert_deliveries')
            .values({
              subscription_id: sub.id,
              channel: 'webhook',
              event_id: id,
              period_slug: current.slug,
              target: sub.webhook_url,
              status: 'pending',
            })
            .execute();
        }
      }
      result.events += added;
      if (added > 0 && sub.email && options.queueDigest) {
        const digest = await trx
          .insertInto('alert_deliveries')
          .values({
            subscription_id: sub.id,
            channel: 'email',
            event_id: null,
            period_slug: current.slug,
            target: sub.email,
            status: 'pending',
          })
          .onConflict((oc) => oc.columns(['subscription_id', 'period_slug']).where('channel', '=', 'email').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (digest) {
          await options.queueDigest(trx, { id: sub.id, email: sub.email }, current, digest.id);
          result.digests++;
        }
      }
    });
  }
  return result;
}
