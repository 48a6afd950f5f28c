import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Crypto payments. `x402_payments`: one row per EIP-3009 authorization we accepted, reserved before the facilitator
 * settles it (status `pending`) and marked `settled` with the transaction hash afterwards; the unique key on the
 * authorization nonce means one authorization is settled at most once, on any number of instances.
 * `solana_redemptions`: one row per redeemed transaction signature, inserted in the same transaction that grants the
 * credits; the primary key on the signature is what makes a signature redeemable exactly once.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('x402_payments')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('payer', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull())
      .addColumn('startup', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'settled')`))
      .addColumn('tx_hash', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('settled_at', 'timestamptz')
      .addUniqueConstraint('x402_payments_authorization_unique', ['network', 'asset', 'payer', 'nonce'])
      .execute();

    await db.schema
      .createTable('solana_redemptions')
      .addColumn('signature', 'text', (c) => c.primaryKey())
      .addColumn('cluster', 'text', (c) => c.notNull())
      .addColumn('mint', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('amount', 'numeric(20, 0)', (c) => c.notNull())
      .addColumn('credits', 'integer', (c) => c.notNull())
      .addColumn('slot', 'numeric(20, 0)', (c) => c.notNull())
      .addColumn('redeemed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('solana_redemptions_account').on('solana_redemptions').column('account_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('solana_redemptions').execute();
    await db.schema.dropTable('x402_payments').execute();
  },
};
