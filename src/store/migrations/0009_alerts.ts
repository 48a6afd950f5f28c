import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Alerts. `alert_subscriptions`: what a credit-pack account watches and where it is delivered (the webhook
 * secret sealed, never in clear). `alert_events`: one row per matching change of a published period and
 * subscription; the unique key (subscription, period, kind, startup) is what makes a period's rules, run by any
 * number of instances or again after a restart, produce each event once. `alert_deliveries`: the durable delivery
 * queue and the log the subscriber reads: one webhook delivery per event (unique), one e-mail digest per period and
 * subscription, each with its attempts and last outcome. `mail_outbox` gains a ready-made subject and text, for
 * messages other than key e-mails (the digests).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('alert_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('label', 'text')
      .addColumn('watch', 'jsonb', (c) => c.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('webhook_secret_ciphertext', 'text')
      .addColumn('email', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('alert_subscriptions_account').on('alert_subscriptions').column('account_id').execute();

    await db.schema
      .createTable('alert_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subscription_id', 'text', (c) => c.notNull().references('alert_subscriptions.id').onDelete('cascade'))
      .addColumn('period_slug', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('org_login', 'text', (c) => c.notNull())
      .addColumn('payload', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('alert_events_once', ['subscription_id', 'period_slug', 'kind', 'org_login'])
      .execute();
    await db.schema
      .createIndex('alert_events_subscription')
      .on('alert_events')
      .columns(['subscription_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('alert_deliveries')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('subscription_id', 'text', (c) => c.notNull().references('alert_subscriptions.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('webhook', 'email')`))
      .addColumn('event_id', 'text', (c) => c.references('alert_events.id').onDelete('cascade'))
      .addColumn('period_slug', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_attempt_at', 'timestamptz')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('mail_outbox_id', 'bigint')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create unique index alert_deliveries_webhook_once on alert_deliveries (event_id) where channel = 'webhook'`.execute(
      db,
    );
    await sql`create unique index alert_deliveries_digest_once on alert_deliveries (subscription_id, period_slug) where channel = 'email'`.execute(
      db,
    );
    await sql`create index alert_deliveries_due on alert_deliveries (next_attempt_at) where status = 'pending' and channel = 'webhook'`.execute(
      db,
    );
    await db.schema
      .createIndex('alert_deliveries_subscription')
      .on('alert_deliveries')
      .columns(['subscription_id', 'id'])
      .execute();

    await db.schema.alterTable('mail_outbox').addColumn('subject', 'text').execute();
    await db.schema.alterTable('mail_outbox').addColumn('body', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('mail_outbox').dropColumn('body').execute();
    await db.schema.alterTable('mail_outbox').dropColumn('subject').execute();
    await db.schema.dropTable('alert_deliveries').execute();
    await db.schema.dropTable('alert_events').execute();
    await db.schema.dropTable('alert_subscriptions').execute();
  },
};
