import type { ScoutReceipts } from '../../schemas/scout.js';
import { RANK_COLORS } from './badges.js';

/** Text for SVG/XML: the five markup characters escaped, control characters dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const HEX: Record<string, string> = {
  lightgrey: '#9f9f9f',
  blue: '#007ec6',
  green: '#97ca00',
  orange: '#fe7d37',
  blueviolet: '#8a2be2',
};

/** Greedy word wrap to at most `lines` lines of `width` characters (the last one ends with … when cut). */
function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length > width && line) {
      out.push(line);
      line = word;
    } else line = next;
  }
  if (line) out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = `${kept[lines - 1]!.slice(0, width - 1)}…`;
  return kept;
}

/** The shareable card: a 640×320 SVG with the score, rank, best calls and the personality summary. */
export function renderScoutCard(receipts: ScoutReceipts, serviceName = 'Signal Service'): string {
  const color = HEX[RANK_COLORS[receipts.rank]] ?? '#007ec6';
  const calls = receipts.topEarlyCalls.slice(0, 3).map((c, i) => {
    const years = (c.leadDays / 365).toFixed(1);
    const text = `${c.company}: starred ${c.starredAt.slice(0, 10)}, ${years} years before the ${c.milestone.type}`;
    return `<text x="32" y="${178 + i * 24}" font-size="15" fill="#24292f">${escapeXml(text)}</text>`;
  });
  if (calls.length === 0) {
    calls.push('<text x="32" y="178" font-size="15" fill="#57606a">No early calls on validated companies yet.</text>');
  }
  const personality = wrap(receipts.personality, 78, 2).map(
    (line, i) => `<text x="32" y="${264 + i * 20}" font-size="13" fill="#57606a">${escapeXml(line)}</text>`,
  );
  const title = `Scout Score of ${receipts.username}: ${receipts.score} (${receipts.rank})`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320" viewBox="0 0 640 320" role="img"',
    ` aria-label="${escapeXml(title)}" font-family="Verdana,DejaVu Sans,sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    '<rect width="640" height="320" rx="16" fill="#ffffff" stroke="#d0d7de"/>',
    `<rect width="640" height="8" rx="4" fill="${color}"/>`,
    `<text x="32" y="56" font-size="22" font-weight="bold" fill="#24292f">${escapeXml(receipts.username)}</text>`,
    `<text x="32" y="82" font-size="14" fill="#57606a">Scout Score · ${escapeXml(serviceName)}</text>`,
    `<text x="608" y="84" font-size="56" font-weight="bold" text-anchor="end" fill="${color}">${receipts.score}</text>`,
    `<text x="608" y="112" font-size="16" text-anchor="end" fill="#24292f">${escapeXml(receipts.rank)}</text>`,
    `<text x="32" y="148" font-size="13" font-weight="bold" fill="#24292f">Top early calls (${receipts.stats.earlyCalls})</text>`,
    ...calls,
    ...personality,
    '</svg>',
  ].join('\n');
}
