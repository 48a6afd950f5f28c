import { stageSourceOf } from '../domain/stage-source.js';
import { stringify } from 'csv-stringify/sync';
import { signalLabel } from '../domain/signal-label.js';
import { collectionOf, type CollectionFacts } from '../domain/collection.js';
import type { SectorSlug } from '../schemas/enums.js';
import type { Startup } from '../schemas/signals.js';
import { drain, type Steps } from './steps.js';

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
  'stageSource',
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

/** Rows of the CSV rendered per step of the stepped rendering: about 10 ms of work each. */
export const CSV_ROWS_PER_STEP = 2000;

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
  return drain(renderSignalsCsvInSteps(periodSlug, bySector, trendingRank, synthetic)).join('');
}

/**
 * The same file rendered in steps of `CSV_ROWS_PER_STEP` rows (see steps.ts), returned as its consecutive pieces:
 * at 100,000 startups the whole file is seconds of work, which a background warm-up must not do in one turn.
 */
export function* renderSignalsCsvInSteps(
  periodSlug: string,
  bySector: ReadonlyMap<SectorSlug, readonly CsvStartup[]>,
  trendingRank: ReadonlyMap<string, number>,
  synthetic = false,
): Steps<string[]> {
  const pieces: string[] = [];
  let rows: string[][] = [];
  const flush = () => {
    pieces.push(
      stringify(rows, {
        header: pieces.length === 0,
        columns: [...CSV_COLUMNS],
        record_delimiter: '\r\n',
        // csv-stringify quotes only its own record delimiter by default; RFC 4180 wants any CR or LF quoted.
        quoted_match: /[\r\n]/,
      }),
    );
    rows = [];
  };
  for (const [sector, list] of bySector) {
    for (const s of list) {
      rows.push(csvRow(periodSlug, sector, s, trendingRank, synthetic));
      if (rows.length === CSV_ROWS_PER_STEP) {
        flush();
        yield;
      }
    }
  }
  if (rows.length > 0 || pieces.length === 0) flush();
  return pieces;
}

function csvRow(
  periodSlug: string,
  sector: SectorSlug,
  s: CsvStartup,
  trendingRank: ReadonlyMap<string, number>,
  synthetic: boolean,
): string[] {
  const st = s.startup;
  const label = signalLabel(st.signalType, s.metrics);
  const collection = collectionOf(s);
  return [
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
    stageSourceOf(s.metrics),
  ].map(neutraliseCell);
}
