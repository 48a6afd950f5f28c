import { type DatasetKind } from '../domain/datasets.js';
import { createHash } from 'node:crypto';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { PeriodRef } from '../domain/periods.js';
import { recordMetrics, type RankedPeriod } from '../domain/records.js';
import type { Database, NewPeriodStartupRow, PeriodRow, PeriodStartupRow } from './schema.js';

export interface PublishInput {
  period: PeriodRef;
  dataset: DatasetKind;
  datasetName: string;
  ranked: RankedPeriod;
  publishedAt: Date;
}

const INSERT_BATCH = 500;

/** Runs `work` in a transaction, joining the caller's when there already is one. */
export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

function toRows(slug: string, ranked: RankedPeriod): NewPeriodStartupRow[] {
  return ranked.startups.map((s, i) => ({
    period_slug: slug,
    org_login: s.login,
    position: i + 1,
    sector: s.sector,
    rank_overall: s.rankOverall,
    rank_in_sector: s.rankInSector,
    eligible: s.eligible,
    score_velocity: s.scores.velocity,
    score_growth: s.scores.growth,
    score_novelty: s.scores.novelty,
    score_composite: s.scores.composite,
    startup: JSON.stringify(s.startup),
    metrics: JSON.stringify(recordMetrics(s)),
    collection: s.collectionNote ? 'partial' : 'complete',
    collection_note: s.collectionNote ?? null,
  }));
}

/**
 * The content hash a period is published with: the dataset kind and, per startup in order, what identifies its record
 * (login, position, the record, its composite score, and the collection note when there is one).
 */
export function periodContentHash(dataset: string, ranked: RankedPeriod): string {
  return createHash('sha256')
    .update(dataset)
    .update(
      JSON.stringify(
        ranked.startups.map((s, i) =>
          // The collection note joins the hash only when there is one, so complete weeks keep their hashes.
          s.collectionNote
            ? [s.login, i + 1, JSON.stringify(s.startup), s.scores.composite, s.collectionNote]
            : [s.login, i + 1, JSON.stringify(s.startup), s.scores.composite],
        ),
      ),
    )
    .digest('hex');
}

/**
 * Publishes (or republishes) one period in a single transaction: readers see the previous state or the whole new
 * period, never a part of it.
 */
export async function publishPeriod(db: Kysely<Database>, input: PublishInput): Promise<PeriodRow> {
  const rows = toRows(input.period.slug, input.ranked);
  const contentHash = periodContentHash(input.dataset, input.ranked);
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom('period_startups').where('period_slug', '=', input.period.slug).execute();
    const period = await trx
      .insertInto('periods')
      .values({
        slug: input.period.slug,
        iso_year: input.period.isoYear,
        iso_week: input.period.isoWeek,
        name: input.period.name,
        starts_on: input.period.startsOn,
        ends_on: input.period.endsOn,
        dataset: input.dataset,
        dataset_name: input.datasetName,
        startups_tracked: rows.length,
        content_hash: contentHash,
        published_at: input.publishedAt,
      })
      .onConflict((oc) =>
        oc.column('slug').doUpdateSet((eb) => ({
          dataset: eb.ref('excluded.dataset'),
          dataset_name: eb.ref('excluded.dataset_name'),
          startups_tracked: eb.ref('excluded.startups_tracked'),
          content_hash: eb.ref('excluded.content_hash'),
          published_at: eb.ref('excluded.published_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await trx
        .insertInto('period_startups')
        .values(rows.slice(i, i + INSERT_BATCH))
        .execute();
    }
    return period;
  });
}

/** The newest period by ISO week (not by publication time: rebuilding an old week does not make it current). */
export async function latestPeriod(db: Kysely<Database>): Promise<PeriodRow | undefined> {
  return db
    .selectFrom('periods')
    .selectAll()
    .orderBy('iso_year', 'desc')
    .orderBy('iso_week', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function listPeriods(db: Kysely<Database>): Promise<PeriodRow[]> {
  return db.selectFrom('periods').selectAll().orderBy('iso_year', 'asc').orderBy('iso_week', 'asc').execute();
}

export async function periodStartups(db: Kysely<Database>, slug: string): Promise<PeriodStartupRow[]> {
  return db.selectFrom('period_startups').selectAll().where('period_slug', '=', slug).orderBy('position').execute();
}

/** A query over `period_startups` before its columns are chosen. */
export type PeriodStartupsFrom = SelectQueryBuilder<Database, 'period_startups', object>;
/** The columns a reader of periodStartupPages wants (`position` among them, for the next page). */
export type PeriodStartupColumns<R extends { position: number }> = (
  from: PeriodStartupsFrom,
) => SelectQueryBuilder<Database, 'period_startups', R>;

/**
 * The rows `columns` chooses of every startup of every period (or of `onlySlugs`), oldest period first, in pages:
 * callers stream them without holding them all. Keyset pagination on (period, position), the unique index, keeps
 * every page an index range scan.
 */
export async function* periodStartupPages<R extends { position: number }>(
  db: Kysely<Database>,
  columns: PeriodStartupColumns<R>,
  pageSize: number,
  onlySlugs?: readonly string[],
): AsyncGenerator<{ period: PeriodRow; rows: R[] }> {
  const wanted = onlySlugs && new Set(onlySlugs);
  for (const period of await listPeriods(db)) {
    if (wanted && !wanted.has(period.slug)) continue;
    let after = 0;
    for (;;) {
      const rows = await columns(db.selectFrom('period_startups'))
        .where('period_slug', '=', period.slug)
        .where('position', '>', after)
        .orderBy('position')
        .limit(pageSize)
        .execute();
      if (rows.length === 0) break;
      yield { period, rows };
      after = rows[rows.length - 1]!.position;
      if (rows.length < pageSize) break;
    }
  }
}

/** Every startup of every period, whole rows, oldest period first, in pages (see periodStartupPages). */
export function iterateAllPeriodStartups(
  db: Kysely<Database>,
  pageSize = 1000,
  onlySlugs?: readonly string[],
): AsyncGenerator<{ period: PeriodRow; rows: PeriodStartupRow[] }> {
  return periodStartupPages(db, (from) => from.selectAll(), pageSize, onlySlugs);
}

export async function countPeriods(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('periods')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
