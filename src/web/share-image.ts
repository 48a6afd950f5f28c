import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { sectorInfo, sectors } from '../domain/sectors.js';
import { WINDOW_DAYS } from '../domain/rules.js';
import type { SectorSlug } from '../schemas/enums.js';
import type { SnapshotStartup } from '../snapshot/snapshot.js';
import { formatInt, type PageContext } from './context.js';
import { html, type SafeHtml } from './html.js';
import { labelOf, strengthText } from './signal-label.js';
import { woffToSfnt } from './woff.js';

/**
 * Share images (`og:image`): a 1200×630 PNG card per startup, per sector and one for the site, drawn as SVG and
 * rasterised with resvg, rendered once per period like the pages (link previews do not accept SVG). Text is set in
 * Inter from `@fontsource/inter` (its WOFF files unwrapped to OpenType once per process, since resvg reads no WOFF);
 * no system font is used, so a card looks the same on every machine. Every value is escaped by the `html` template.
 */
export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

const BG = '#111318';
const FG = '#e6e8ec';
const MUTED = '#a7afbd';
const ACCENT = '#8ab4f8';
const UP = '#6dd58c';
const DOWN = '#f2b8b5';
const WARN_BG = '#fff4d6';
const WARN_FG = '#5c4400';

const require = createRequire(import.meta.url);

let fontFiles: string[] | undefined;

/** The Inter faces as OpenType files in a temporary folder named by their content (written once per machine). */
function fonts(): string[] {
  if (fontFiles) return fontFiles;
  const dir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');
  const faces = ['latin-400', 'latin-700', 'latin-ext-400', 'latin-ext-700'].map((f) =>
    woffToSfnt(fs.readFileSync(path.join(dir, `inter-${f}-normal.woff`))),
  );
  const hash = createHash('sha256');
  for (const face of faces) hash.update(face);
  const out = path.join(os.tmpdir(), `signal-service-fonts-${hash.digest('hex').slice(0, 12)}`);
  fs.mkdirSync(out, { recursive: true });
  fontFiles = faces.map((face, i) => {
    const file = path.join(out, `inter-${i}.otf`);
    if (!fs.existsSync(file) || fs.statSync(file).size !== face.length) {
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, face);
      fs.renameSync(temporary, file);
    }
    return file;
  });
  return fontFiles;
}

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/**
 * Rasterises a card's SVG to PNG off the event loop (resvg runs on the thread pool). Characters XML forbids are
 * dropped from the whole document first: escaping cannot make them legal, and a name may carry one.
 */
export async function rasterise(svg: string): Promise<Buffer> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const image = await renderAsync(svg.replace(NOT_XML, ''), {
    font: { loadSystemFonts: false, fontFiles: fonts(), defaultFontFamily: 'Inter', sansSerifFamily: 'Inter' },
    fitTo: { mode: 'original' },
  });
  return image.asPng();
}

/** Characters XML forbids (control characters) removed, then cut to `max` characters with an ellipsis. */
export function cardText(text: string, max: number): string {
  const clean = text.replace(NOT_XML, '').trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}

/** A font size at which `text` fits `width` (Inter averages about 0.56 em a character), between `min` and `max`. */
function fitSize(text: string, width: number, max: number, min: number): number {
  return Math.max(min, Math.min(max, Math.floor(width / (Math.max(text.length, 1) * 0.56))));
}

function frame(body: SafeHtml, periodName: string, synthetic: boolean, label: string): string {
  return html`<svg
    xmlns="http://www.w3.org/2000/svg"
    width="${SHARE_WIDTH}"
    height="${SHARE_HEIGHT}"
    viewBox="0 0 ${SHARE_WIDTH} ${SHARE_HEIGHT}"
    font-family="Inter"
  >
    <title>${label}</title>
    <rect width="100%" height="100%" fill="${BG}" />
    <rect x="0" y="0" width="${SHARE_WIDTH}" height="8" fill="${ACCENT}" />
    <text x="60" y="76" font-size="30" font-weight="700" fill="${FG}">Signal Service</text>
    <text x="${SHARE_WIDTH - 60}" y="76" font-size="26" fill="${MUTED}" text-anchor="end">
      ${cardText(periodName, 40)}
    </text>
    ${
      synthetic
        ? html`<rect x="0" y="${SHARE_HEIGHT - 64}" width="${SHARE_WIDTH}" height="64" fill="${WARN_BG}" />
            <text x="60" y="${SHARE_HEIGHT - 22}" font-size="26" font-weight="700" fill="${WARN_FG}">
              SYNTHETIC DEMO DATA: fictional startups with generated activity
            </text>`
        : ''
    }
    ${body}
  </svg>`.value;
}

/** A stat block: a big number, an optional signed change, a caption below. */
function stat(x: number, y: number, value: string, caption: string, delta?: string): SafeHtml {
  const n = delta === undefined ? 0 : Number.parseInt(delta, 10);
  const deltaX = x + value.length * 30 + 16;
  return html`<text x="${x}" y="${y}" font-size="56" font-weight="700" fill="${FG}">${value}</text>
    ${
      delta === undefined
        ? ''
        : html`<text
            x="${deltaX}"
            y="${y}"
            font-size="30"
            font-weight="700"
            fill="${n > 0 ? UP : n < 0 ? DOWN : MUTED}"
          >
            ${cardText(delta, 10)}
          </text>`
    }
    <text x="${x}" y="${y + 40}" font-size="24" fill="${MUTED}">${caption}</text>`;
}

/** A line of the values in the box (x, y, width, height), with its last point marked. */
function trend(values: readonly number[], x: number, y: number, width: number, height: number): SafeHtml {
  if (values.length < 2) return html``;
  const sx = scaleLinear()
    .domain([0, values.length - 1])
    .range([x, x + width]);
  const sy = scaleLinear()
    .domain([0, Math.max(...values, 1)])
    .range([y + height, y]);
  const d = line<number>()
    .x((_, i) => sx(i))
    .y((v) => sy(v))(values as number[]);
  const last = values.length - 1;
  return html`<path d="${d ?? ''}" fill="none" stroke="${ACCENT}" stroke-width="5" stroke-linejoin="round" />
    <circle cx="${sx(last).toFixed(1)}" cy="${sy(values[last]!).toFixed(1)}" r="9" fill="${ACCENT}" />`;
}

/** The card of one startup: its figures this period and its commits over the stored weeks. */
export async function startupCard(ctx: PageContext, s: SnapshotStartup): Promise<Buffer> {
  const { snapshot } = ctx;
  const t = s.startup;
  const info = sectorInfo(s.sector);
  const commits = (await ctx.series()).get(s.login.toLowerCase())?.commits ?? [];
  const name = cardText(t.name, 40);
  const size = fitSize(name, 1080, 84, 44);
  const sectorCount = snapshot.bySector.get(s.sector)?.length ?? 0;
  const body = html`<text x="60" y="${150 + size * 0.75}" font-size="${size}" font-weight="700" fill="${FG}"
      >${name}</text
    >
    <text x="60" y="290" font-size="30" fill="${MUTED}">
      ${cardText(`${info.name} · ${t.stage} · ${t.geography}`, 70)}
    </text>
    <text x="60" y="345" font-size="32" font-weight="700" fill="${ACCENT}">
      ${cardText(`${t.signalType} (${strengthText(labelOf(s))})`, 60)}
    </text>
    ${stat(60, 450, formatInt(t.commitVelocity14d), `commits in ${WINDOW_DAYS} days`, t.commitVelocityChange)}
    ${stat(400, 450, formatInt(t.contributors), 'contributors', t.contributorGrowth)}
    ${stat(700, 450, String(s.scores.composite), `score · #${s.rankInSector} of ${sectorCount} in sector`)}
    ${trend(commits, 880, 170, 260, 110)}`;
  return rasterise(
    frame(body, snapshot.period.name, snapshot.synthetic, `${t.name}: ${t.signalType}, ${snapshot.period.name}`),
  );
}

/** The card of one sector: how many startups, the top three, and the sector's commits over the stored weeks. */
export async function sectorCard(ctx: PageContext, slug: SectorSlug): Promise<Buffer> {
  const { snapshot } = ctx;
  const info = sectorInfo(slug);
  const list = snapshot.bySector.get(slug) ?? [];
  const series = await ctx.series();
  const weeks = new Map<string, number>();
  for (const s of list) {
    const h = series.get(s.login.toLowerCase());
    h?.periods.forEach((p, i) => weeks.set(p, (weeks.get(p) ?? 0) + h.commits[i]!));
  }
  const totals = [...weeks.keys()].sort().map((p) => weeks.get(p)!);
  const name = cardText(info.name, 40);
  const size = fitSize(name, 760, 84, 48);
  const body = html`<text x="60" y="${150 + size * 0.75}" font-size="${size}" font-weight="700" fill="${FG}"
      >${name}</text
    >
    <text x="60" y="290" font-size="30" fill="${MUTED}">
      ${formatInt(list.length)} startups ranked by engineering acceleration
    </text>
    ${list.slice(0, 3).map(
      (s, i) =>
        html`<text x="60" y="${370 + i * 56}" font-size="36" fill="${FG}">
          <tspan font-weight="700">${i + 1}.</tspan> ${cardText(s.startup.name, 36)}
          <tspan fill="${MUTED}"> · score ${s.scores.composite}</tspan>
        </text>`,
    )}
    ${trend(totals, 880, 170, 260, 110)}
    ${totals.length > 1 ? html`<text x="1140" y="320" font-size="22" fill="${MUTED}" text-anchor="end">commits, every stored week</text>` : ''}`;
  return rasterise(
    frame(body, snapshot.period.name, snapshot.synthetic, `${info.name} startups, ${snapshot.period.name}`),
  );
}

/** The site's card: what the service is and what this period covers. */
export async function siteCard(ctx: PageContext): Promise<Buffer> {
  const { snapshot } = ctx;
  const body = html`<text x="60" y="230" font-size="68" font-weight="700" fill="${FG}">Which startups are</text>
    <text x="60" y="310" font-size="68" font-weight="700" fill="${FG}">accelerating their engineering?</text>
    <text x="60" y="390" font-size="28" fill="${MUTED}">
      Signals from public GitHub activity, for investors, developers and AI agents.
    </text>
    ${stat(60, 490, formatInt(snapshot.startups.length), 'startups tracked')}
    ${stat(400, 490, String(sectors.length), 'sectors')}
    ${stat(700, 490, formatInt(snapshot.periods.length), 'weeks stored')}`;
  return rasterise(frame(body, snapshot.period.name, snapshot.synthetic, `Signal Service, ${snapshot.period.name}`));
}
