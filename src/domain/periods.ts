/**
 * Periods are ISO 8601 weeks (Monday to Sunday, UTC). A period's slug is `2026-w47`, its name `Week 47, 2026`.
 * A period's signals are measured over windows that end at the close of its Sunday.
 */
export interface PeriodRef {
  slug: string;
  name: string;
  isoYear: number;
  isoWeek: number;
  /** Monday 00:00 UTC, as YYYY-MM-DD. */
  startsOn: string;
  /** Sunday, as YYYY-MM-DD (inclusive). */
  endsOn: string;
}

export const DAY_MS = 86_400_000;
const SLUG_PATTERN = /^(\d{4})-w(\d{2})$/;

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The ISO week-numbering year and week of a UTC date. */
export function isoWeekOf(date: Date): { isoYear: number; isoWeek: number } {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = d.getUTCDay() || 7; // Monday = 1 … Sunday = 7
  d.setUTCDate(d.getUTCDate() + 4 - weekday); // the Thursday of this week decides the year
  const isoYear = d.getUTCFullYear();
  const firstDay = Date.UTC(isoYear, 0, 1);
  const isoWeek = Math.ceil(((d.getTime() - firstDay) / DAY_MS + 1) / 7);
  return { isoYear, isoWeek };
}

/** Monday of ISO week 1 of an ISO year. */
function mondayOfWeekOne(isoYear: number): number {
  const jan4 = new Date(Date.UTC(isoYear, 0, 4));
  const weekday = jan4.getUTCDay() || 7;
  return jan4.getTime() - (weekday - 1) * DAY_MS;
}

export function weeksInIsoYear(isoYear: number): number {
  return isoWeekOf(new Date(Date.UTC(isoYear, 11, 28))).isoWeek;
}

export function periodOf(isoYear: number, isoWeek: number): PeriodRef {
  if (!Number.isInteger(isoYear) || isoYear < 1970 || isoYear > 9999) throw new RangeError(`bad ISO year ${isoYear}`);
  if (!Number.isInteger(isoWeek) || isoWeek < 1 || isoWeek > weeksInIsoYear(isoYear)) {
    throw new RangeError(`ISO year ${isoYear} has no week ${isoWeek}`);
  }
  const monday = mondayOfWeekOne(isoYear) + (isoWeek - 1) * 7 * DAY_MS;
  return {
    slug: `${isoYear}-w${String(isoWeek).padStart(2, '0')}`,
    name: `Week ${isoWeek}, ${isoYear}`,
    isoYear,
    isoWeek,
    startsOn: isoDay(new Date(monday)),
    endsOn: isoDay(new Date(monday + 6 * DAY_MS)),
  };
}

export function periodContaining(date: Date): PeriodRef {
  const { isoYear, isoWeek } = isoWeekOf(date);
  return periodOf(isoYear, isoWeek);
}

/** Parses `2026-w47` (case-insensitive `W` accepted); throws RangeError on anything else. */
export function parsePeriodSlug(slug: string): PeriodRef {
  const match = SLUG_PATTERN.exec(slug.trim().toLowerCase());
  if (!match) throw new RangeError(`"${slug}" is not a period slug like 2026-w47`);
  return periodOf(Number(match[1]), Number(match[2]));
}

export function shiftPeriod(period: PeriodRef, weeks: number): PeriodRef {
  return periodContaining(new Date(Date.parse(`${period.startsOn}T00:00:00Z`) + weeks * 7 * DAY_MS));
}

/** The most recent week that has fully ended before `now`. */
export function lastCompletePeriod(now: Date): PeriodRef {
  return shiftPeriod(periodContaining(now), -1);
}

/** The first instant after the period (the following Monday 00:00 UTC): windows end here, exclusive. */
export function periodEnd(period: PeriodRef): Date {
  return new Date(Date.parse(`${period.endsOn}T00:00:00Z`) + DAY_MS);
}

export function comparePeriods(a: PeriodRef, b: PeriodRef): number {
  return a.isoYear - b.isoYear || a.isoWeek - b.isoWeek;
}
