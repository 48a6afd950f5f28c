/** One startup's figures over the stored periods it appears in, oldest first (what the site's charts draw). */
export interface StartupSeries {
  periods: string[];
  commits: number[];
  contributors: number[];
  /** Rank across all sectors; null below the ranking floor. */
  ranks: (number | null)[];
}

/** A stored rank is a positive integer; 0 stands for "not ranked" in the rank column. */
const UNRANKED = 0;

/** Refuses a figure that is not a count a 32-bit column holds. */
function checkCount(what: string, value: number, login: string, period: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff)
    throw new RangeError(`series: ${what} of ${login} in ${period} is not a count (${value})`);
}

/** Growable columns of 32-bit integers (one per figure), for the builder. */
class Column {
  values = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/**
 * Every startup's series over the stored periods, held as columns of 32-bit integers (one row per startup and
 * period, grouped by startup, oldest period first) rather than four arrays of boxed values and a string per period
 * for each startup: at 10,000 startups over 30 weeks about 5 MB of the serving heap (14 bytes per startup and
 * week) instead of 24 MB. A startup's series is materialised when asked for (`get`), a few dozen numbers.
 *
 * Figures are integers by the Startup schema (commits and contributors are counts, ranks positions); a figure that is
 * not one is refused when added rather than silently truncated.
 */
export class SeriesTable {
  /** Built by SeriesBuilder.finish. */
  constructor(
    /** Every period slug the rows name, each once. */
    private readonly periodSlugs: readonly string[],
    /** Startup index by lower-case organisation login. */
    private readonly byLogin: ReadonlyMap<string, number>,
    /** Rows of startup i are starts[i] … starts[i + 1] - 1. */
    private readonly starts: Uint32Array,
    private readonly period: Uint16Array,
    private readonly commits: Int32Array,
    private readonly contributors: Int32Array,
    private readonly ranks: Int32Array,
  ) {}

  static builder(): SeriesBuilder {
    return new SeriesBuilder();
  }

  /** How many startups have a series. */
  get size(): number {
    return this.byLogin.size;
  }

  /** The series of a startup by its lower-case organisation login. */
  get(login: string): StartupSeries | undefined {
    const i = this.byLogin.get(login);
    if (i === undefined) return undefined;
    const series: StartupSeries = { periods: [], commits: [], contributors: [], ranks: [] };
    for (let row = this.starts[i]!; row < this.starts[i + 1]!; row++) {
      series.periods.push(this.periodSlugs[this.period[row]!]!);
      series.commits.push(this.commits[row]!);
      series.contributors.push(this.contributors[row]!);
      const rank = this.ranks[row]!;
      series.ranks.push(rank === UNRANKED ? null : rank);
    }
    return series;
  }

  /** The table limited to the periods named (the same table when it holds no other). */
  keep(periods: ReadonlySet<string>): SeriesTable {
    if (this.periodSlugs.every((p) => periods.has(p))) return this;
    const builder = new SeriesBuilder();
    for (const [login, i] of this.byLogin)
      for (let row = this.starts[i]!; row < this.starts[i + 1]!; row++) {
        const slug = this.periodSlugs[this.period[row]!]!;
        if (!periods.has(slug)) continue;
        const rank = this.ranks[row]!;
        builder.add(login, slug, this.commits[row]!, this.contributors[row]!, rank === UNRANKED ? null : rank);
      }
    return builder.finish();
  }
}

/**
 * Collects rows in any order of startups (a startup's rows oldest period first, as the store reads them) and groups
 * them by startup when finished (a counting sort, which keeps each startup's rows in the order they were added).
 */
export class SeriesBuilder {
  private readonly periodSlugs: string[] = [];
  private readonly periodIndex = new Map<string, number>();
  private readonly byLogin = new Map<string, number>();
  private readonly startup = new Column();
  private readonly period = new Column();
  private readonly commits = new Column();
  private readonly contributors = new Column();
  private readonly ranks = new Column();

  /** Adds one startup's figures in one period; `login` is the organisation login, in any case. */
  add(login: string, period: string, commits: number, contributors: number, rank: number | null): void {
    checkCount('commits', commits, login, period);
    checkCount('contributors', contributors, login, period);
    if (rank !== null && (!Number.isInteger(rank) || rank < 1 || rank > 0x7fffffff))
      throw new RangeError(`series: rank of ${login} in ${period} is not a position (${rank})`);
    const key = login.toLowerCase();
    let i = this.byLogin.get(key);
    if (i === undefined) this.byLogin.set(key, (i = this.byLogin.size));
    let p = this.periodIndex.get(period);
    if (p === undefined) {
      if (this.periodSlugs.length === 0xffff) throw new RangeError('series: more than 65,535 periods');
      this.periodIndex.set(period, (p = this.periodSlugs.length));
      this.periodSlugs.push(period);
    }
    this.startup.push(i);
    this.period.push(p);
    this.commits.push(commits);
    this.contributors.push(contributors);
    this.ranks.push(rank ?? UNRANKED);
  }

  finish(): SeriesTable {
    const rows = this.startup.length;
    const startups = this.byLogin.size;
    const starts = new Uint32Array(startups + 1);
    const owner = this.startup.values;
    for (let row = 0; row < rows; row++) starts[owner[row]! + 1]!++;
    for (let i = 0; i < startups; i++) starts[i + 1]! += starts[i]!;
    const next = starts.slice(0, startups);
    const period = new Uint16Array(rows);
    const commits = new Int32Array(rows);
    const contributors = new Int32Array(rows);
    const ranks = new Int32Array(rows);
    for (let row = 0; row < rows; row++) {
      const at = next[owner[row]!]!++;
      period[at] = this.period.values[row]!;
      commits[at] = this.commits.values[row]!;
      contributors[at] = this.contributors.values[row]!;
      ranks[at] = this.ranks.values[row]!;
    }
    return new SeriesTable(this.periodSlugs, this.byLogin, starts, period, commits, contributors, ranks);
  }
}
