import { sql, type Kysely, type Migration } from 'kysely';

/**
 * x402 settlements whose outcome is not known: what a reservation needs so that a crash, a timeout or a
 * facilitator that never answered leaves nothing charged twice, nothing delivered twice and nothing paid lost.
 * - `valid_before`: when the authorization stops being settleable (EIP-3009 validBefore): a reservation whose
 *   authorization is unused on-chain past it can be dropped safely.
 * - `x402_version`: the protocol version it was paid with (1: X-PAYMENT, 2: PAYMENT-SIGNATURE).
 * - `signature_hash`: SHA-256 of the signature, so that only the same signed authorization can claim a paid answer.
 * - `reserved_at`: when a request last took the reservation (a retry that takes over an abandoned one renews it).
 * - `delivered_at`: when the paid answer was handed out; a settled row without it was paid and not yet answered,
 *   and a retry with the same payment gets the answer without a second settlement.
 * - `checked_at`: when the reconciler last asked the token contract about it.
 * Rows written before this migration were answered when they were settled: they are marked delivered.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('x402_payments')
      .addColumn('valid_before', 'numeric(78, 0)')
      .addColumn('x402_version', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('signature_hash', 'text')
      .addColumn('reserved_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('checked_at', 'timestamptz')
      .execute();
    await sql`update x402_payments set delivered_at = settled_at, reserved_at = created_at`.execute(db);
    await db.schema
      .createIndex('x402_payments_pending')
      .on('x402_payments')
      .column('reserved_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('x402_payments_pending').execute();
    await db.schema
      .alterTable('x402_payments')
      .dropColumn('valid_before')
      .dropColumn('x402_version')
      .dropColumn('signature_hash')
      .dropColumn('reserved_at')
      .dropColumn('delivered_at')
      .dropColumn('checked_at')
      .execute();
  },
};
