import { stringify } from 'csv-stringify/sync';
import { signalLabel } from '../domain/signal-label.js';
import { collectionOf, type CollectionFacts } from '../domain/collection.js';
import type { SectorSlug } from '../schemas/enums.js';
import type { Startup } from '../schemas/signals.js';

/**
 * Spreadsheet formula injection: a cell that starts with = + - @ tab or CR may be run as a formula when the file is
 * opened in a spreadsheet. Such cells get a leading apostrophe (the OWASP recommendation), which spreadsheets show
 * as text. Plain signed numbers such as "+42%" or "-7" are left alone: spreadsheets read them as numbers, never as
 * formulas, and they are the data.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?%?$/;

export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

export const CSV_COLUMNS = [
  'period',
  'sector',
  'sectorRank',
  'trendingRank',
  'name',
  'description',
  'stage',
  'geography',
  'commitVelocity14d',
  'commitVelocityChange',
  'contributors',
  'contributorGrowth',
  'newRepos',
  'signalType',
  'githubUrl',
  'websiteUrl',
  'linkedinUrl',
  'synthetic',
  'signalStrength',
  'signalEvidence',
  'collection',
  'collectionNote',
] as const;

interface CsvStartup {
  login: string;
  startup: Startup;
  rankInSector: number;
  /** The metrics stored with the record: its signal strength and evidence are read from them. */
  metrics: Readonly<Record<string, unknown>>;
  /** Whether its collection was complete that week; absent: complete. */
  collection?: CollectionFacts | undefined;
}

/**
 * RFC 4180: CRLF line ends, fields with `,` `"` CR or LF quoted, quotes doubled; one row per startup. The column
 * `synthetic` is `true` on every row of the synthetic demo dataset (fictional startups), so a row copied out of the
 * file still says it. The last two, `signalStrength` (strong, weak, none) and `signalEvidence` (one line), say how
 * much evidence stands behind `signalType`; they were added after `synthetic`, so earlier columns keep their places.
 * Then `collection` (complete, partial, unknown) and `collectionNote` (what GitHub's answer left out, when partial;
 * empty otherwise), added last for the same reason.
 */
export function renderSignalsCsv(
  periodSlug: string,
  bySector: ReadonlyMap<SectorSlug, readonly CsvStartup[]>,
  trendingRank: ReadonlyMap<string, number>,
  synthetic = false,
): string {
  const rows: string[][] = [];
  for (const [sector, list] of bySector) {
    for (const s of list) {
      const st = s.startup;
      const label = signalLabel(st.signalType, s.metrics);
      const collection = collectionOf(s);
      rows.push(
        [
          periodSlug,
          sector,
          String(s.rankInSector),
          String(trendingRank.get(s.login) ?? ''),
          st.name,
          st.description,
          st.stage,
          st.geography,
          String(st.commitVelocity14d),
          st.commitVelocityChange,
          String(st.contributors),
          st.contributorGrowth,
          String(st.newRepos),
          st.signalType,
          st.githubUrl,
          st.websiteUrl,
          st.linkedinUrl,
          String(synthetic),
          label.signalStrength,
          label.signalEvidence,
          collection.collection,
          collection.collectionNote ?? '',
        ].map(neutraliseCell),
      );
    }
  }
  return stringify(rows, {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: '\r\n',
    // csv-stringify quotes only its own record delimiter by default; RFC 4180 wants any CR or LF quoted.
    quoted_match: /[\r\n]/,
  });
}
