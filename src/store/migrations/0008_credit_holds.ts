import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Charges held until their answer is delivered. A charge made without an Idempotency-Key is written to the
 * ledger as before and, in the same statement, held in `credit_holds` until the answer has been handed to the
 * client's connection. Delivery deletes the hold (the charge stands); a hold that is released (the connection closed
 * first) or that expires (the instance died before it could tell) is deleted and compensated by a `refund` row of
 * +1 in the ledger, which stays append-only.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await sql`alter table credit_ledger drop constraint if exists credit_ledger_kind_check`.execute(db);
    await sql`alter table credit_ledger add constraint credit_ledger_kind_check
      check (kind in ('grant', 'charge', 'refund'))`.execute(db);
    await db.schema
      .createTable('credit_holds')
      .addColumn('ledger_id', 'bigint', (c) => c.primaryKey().references('credit_ledger.id'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('reference', 'text')
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_holds_expires').on('credit_holds').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('credit_holds').execute();
  },
};
