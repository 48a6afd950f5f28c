import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { ExactEvmPaymentPayload } from './payload.js';

/**
 * Our record of x402 authorizations. EIP-3009 nonces are unique per token contract and payer, so that is the key.
 * A row is reserved (`pending`) before settlement, under the unique constraint, so one authorization is settled at
 * most once however many instances receive it at the same moment.
 */
export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

export function authorizationKey(payment: ExactEvmPaymentPayload, asset: string): AuthorizationKey {
  return {
    network: payment.network,
    asset: asset.toLowerCase(),
    payer: payment.payload.authorization.from.toLowerCase(),
    nonce: payment.payload.authorization.nonce.toLowerCase(),
  };
}

function whereKey(db: Kysely<Database>, key: AuthorizationKey) {
  return db
    .selectFrom('x402_payments')
    .where('network', '=', key.network)
    .where('asset', '=', key.asset)
    .where('payer', '=', key.payer)
    .where('nonce', '=', key.nonce);
}

/** True when the authorization was already settled (or is being settled) through us. */
export async function authorizationSeen(db: Kysely<Database>, key: AuthorizationKey): Promise<boolean> {
  const row = await whereKey(db, key).select('id').executeTakeFirst();
  return row !== undefined;
}

/** Reserves the authorization for settlement; false when another request holds it already. */
export async function reserveAuthorization(
  db: Kysely<Database>,
  key: AuthorizationKey,
  amount: string,
  startup: string,
): Promise<number | undefined> {
  const row = await db
    .insertInto('x402_payments')
    .values({ ...key, amount, startup, status: 'pending' })
    .onConflict((oc) => oc.constraint('x402_payments_authorization_unique').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function markSettled(db: Kysely<Database>, id: number, txHash: string): Promise<void> {
  await db
    .updateTable('x402_payments')
    .set({ status: 'settled', tx_hash: txHash, settled_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** A settlement the facilitator refused moved no money: free the authorization so it may be presented again. */
export async function releaseAuthorization(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('x402_payments').where('id', '=', id).where('status', '=', 'pending').execute();
}
