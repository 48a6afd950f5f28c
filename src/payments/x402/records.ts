import { createHash } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, X402PaymentsTable } from '../../store/schema.js';

/**
 * Our record of x402 authorizations. EIP-3009 nonces are unique per token contract and payer, so that is the key
 * (the network by its v1 name in both protocol versions: one authorization is one row however it was presented).
 * A row is reserved (`pending`) before settlement, under the unique constraint, so one authorization is settled at
 * most once however many instances receive it at the same moment; `settled` once the transfer happened, and
 * `delivered_at` once its answer was handed out.
 */
export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

export type AuthorizationRow = Selectable<X402PaymentsTable>;

/**
 * How long a request holds a reservation: past it (the facilitator's own timeout is 15 s) the request is gone and a
 * retry may take the reservation over. A request that saw its settlement time out gives it up at once.
 */
export const RESERVATION_LEASE_SECONDS = 30;

export function authorizationKey(
  network: string,
  asset: string,
  authorization: { from: string; nonce: string },
): AuthorizationKey {
  return {
    network,
    asset: asset.toLowerCase(),
    payer: authorization.from.toLowerCase(),
    nonce: authorization.nonce.toLowerCase(),
  };
}

/** What binds a claim to the signed authorization (the payer and nonce alone are public once it is settled). */
export function signatureHash(signature: string): string {
  return createHash('sha256').update(signature.toLowerCase()).digest('hex');
}

function whereKey(db: Kysely<Database>, key: AuthorizationKey) {
  return db
    .selectFrom('x402_payments')
    .where('network', '=', key.network)
    .where('asset', '=', key.asset)
    .where('payer', '=', key.payer)
    .where('nonce', '=', key.nonce);
}

/** Our row for an authorization, if it was ever reserved through us. */
export async function findAuthorization(
  db: Kysely<Database>,
  key: AuthorizationKey,
): Promise<AuthorizationRow | undefined> {
  return whereKey(db, key).selectAll().executeTakeFirst();
}

export interface Reservation {
  amount: string;
  startup: string;
  validBefore: string;
  version: number;
  signatureHash: string;
}

/** Reserves the authorization for settlement; undefined when another request holds it already. */
export async function reserveAuthorization(
  db: Kysely<Database>,
  key: AuthorizationKey,
  reservation: Reservation,
): Promise<number | undefined> {
  const row = await db
    .insertInto('x402_payments')
    .values({
      ...key,
      amount: reservation.amount,
      startup: reservation.startup,
      status: 'pending',
      valid_before: reservation.validBefore,
      x402_version: reservation.version,
      signature_hash: reservation.signatureHash,
    })
    .onConflict((oc) => oc.constraint('x402_payments_authorization_unique').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * Takes over a pending reservation whose request is gone (reserved longer ago than the lease): true when this
 * request now holds it (one request wins however many retry at once).
 */
export async function takeOverReservation(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db
    .updateTable('x402_payments')
    .set({ reserved_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('reserved_at', '<', sql<Date>`now() - make_interval(secs => ${RESERVATION_LEASE_SECONDS})`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives a reservation up (its request saw the settlement time out): a retry may take it over at once. */
export async function expireLease(db: Kysely<Database>, id: number): Promise<void> {
  await db
    .updateTable('x402_payments')
    .set({ reserved_at: sql<Date>`now() - make_interval(secs => ${RESERVATION_LEASE_SECONDS + 1})` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** The transfer happened: `delivered` when its answer goes out with this request. */
export async function markSettled(
  db: Kysely<Database>,
  id: number,
  txHash: string | null,
  delivered: boolean,
): Promise<void> {
  await db
    .updateTable('x402_payments')
    .set({
      status: 'settled',
      tx_hash: txHash,
      settled_at: sql<Date>`coalesce(settled_at, now())`,
      ...(delivered ? { delivered_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Hands out a paid, not yet answered settlement: true for the one request that gets to answer it. */
export async function claimDelivery(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db
    .updateTable('x402_payments')
    .set({ delivered_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'settled')
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A settlement that moved no money: free the authorization so it may be presented again. */
export async function releaseAuthorization(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('x402_payments').where('id', '=', id).where('status', '=', 'pending').execute();
}

/** Pending reservations no request holds any more, least recently checked first. */
export async function abandonedReservations(db: Kysely<Database>, limit: number): Promise<AuthorizationRow[]> {
  return db
    .selectFrom('x402_payments')
    .selectAll()
    .where('status', '=', 'pending')
    .where('reserved_at', '<', sql<Date>`now() - make_interval(secs => ${RESERVATION_LEASE_SECONDS})`)
    .orderBy(sql`checked_at nulls first`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markChecked(db: Kysely<Database>, id: number): Promise<void> {
  await db
    .updateTable('x402_payments')
    .set({ checked_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}
