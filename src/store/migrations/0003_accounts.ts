import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Paid access: accounts and their credit balance, credit-pack keys (stored only as SHA-256 hashes), the append-only
 * credit ledger, Idempotency-Key records, and card checkout (Stripe events handled, keys waiting to be revealed on
 * the success page, and the mail outbox that delivers keys). Plus an index for reading one startup's history.
 *
 * Money rules live in the schema too: a balance can never go below 0 (CHECK), the ledger refuses UPDATE, DELETE
 * and TRUNCATE (trigger), a grant's external reference (a Stripe event, a payment signature) is unique, and a
 * Stripe event is marked handled under its primary key.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text')
      .addColumn('balance', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`balance >= 0`),
      )
      .addColumn('purchased', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`purchased >= 0`),
      )
      .addColumn('consumed', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`consumed >= 0`),
      )
      .addColumn('last_consumed_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

    await db.schema
      .createTable('credit_ledger')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'charge')`))
      .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
      .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('reference', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('credit_ledger_account').on('credit_ledger').columns(['account_id', 'id']).execute();
    await sql`create unique index credit_ledger_grant_reference on credit_ledger (reason, reference)
      where kind = 'grant' and reference is not null`.execute(db);
    await sql`create function credit_ledger_append_only() returns trigger language plpgsql as $$
      begin raise exception 'credit_ledger is append-only'; end $$`.execute(db);
    await sql`create trigger credit_ledger_append_only before update or delete or truncate on credit_ledger
      for each statement execute function credit_ledger_append_only()`.execute(db);

    await db.schema
      .createTable('idempotency_requests')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('headers', 'jsonb', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('idempotency_requests_pk', ['account_id', 'key'])
      .execute();
    await db.schema
      .createIndex('idempotency_requests_created')
      .on('idempotency_requests')
      .column('created_at')
      .execute();

    await db.schema
      .createTable('stripe_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('handled_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('checkout_deliveries')
      .addColumn('session_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('email', 'text')
      .addColumn('credits', 'integer', (c) => c.notNull())
      .addColumn('reveal_ciphertext', 'text')
      .addColumn('revealed_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('reference', 'text', (c) => c.notNull())
      .addColumn('secret_ciphertext', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('sent_at', 'timestamptz')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create index mail_outbox_due on mail_outbox (next_attempt_at) where sent_at is null`.execute(db);

    // Deep Signal reads one startup's stored periods by login.
    await db.schema.createIndex('period_startups_login').on('period_startups').columns(['org_login']).execute();
  },
};
