import { parsePeriodSlug } from '../domain/periods.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "23 Nov" of a YYYY-MM-DD day. */
function shortDay(day: string): string {
  const [, m, d] = day.split('-').map(Number);
  return `${d} ${MONTHS[m! - 1]}`;
}

/** A week as a person reads it: "Week 48, 2026 (23–29 Nov)", or the slug itself when it is not a week's. */
export function weekLabel(slug: string): string {
  try {
    const p = parsePeriodSlug(slug);
    const [from, to] = [shortDay(p.startsOn), shortDay(p.endsOn)];
    const sameMonth = from.split(' ')[1] === to.split(' ')[1];
    return `${p.name} (${sameMonth ? `${from.split(' ')[0]}–${to}` : `${from} – ${to}`})`;
  } catch {
    return slug;
  }
}
