import { TRENDING_SIZE } from '../../domain/rules.js';
import { BrandGuideContent, MASCOT_TEMPLATE_VARIABLES, type BrandGuide } from '../../schemas/documents.js';
import type { SectorSlug } from '../../schemas/enums.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { fillTemplate, readYamlContent, resolveSiteUrl } from './content.js';
import { sectorInfo } from '../../domain/sectors.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The brand guide of the social mascot: voice, tone, cadence and pillars are content (content/social-mascot.yaml);
 * the sample batch is filled from the current period, so every sample post states real numbers of this week.
 */
export const MASCOT_FILE = 'social-mascot.yaml';

type TemplateValues = Record<(typeof MASCOT_TEMPLATE_VARIABLES)[number], string | number>;

export function mascotValues(snapshot: Snapshot, baseUrl: string): TemplateValues {
  const urls = siteUrls(baseUrl);
  const top = snapshot.trending[0];
  const counts = new Map<SectorSlug, number>();
  for (const s of snapshot.trending) counts.set(s.sector, (counts.get(s.sector) ?? 0) + 1);
  const [hot] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    period: snapshot.period.name,
    periodSlug: snapshot.period.slug,
    startupsTracked: snapshot.startups.length,
    topName: top?.startup.name ?? 'no startup',
    topSector: top ? sectorInfo(top.sector).name : 'no sector',
    topChange: top?.startup.commitVelocityChange ?? '+0%',
    topSignalType: top?.startup.signalType ?? 'no signal',
    hotSector: hot ? sectorInfo(hot[0]).name : 'no sector',
    hotSectorCount: hot?.[1] ?? 0,
    trendingSize: TRENDING_SIZE,
    signalsUrl: urls.api('/api/signals.json'),
    feedUrl: urls.api('/feed.xml'),
    dataNote: snapshot.synthetic ? ' (synthetic demo data: fictional startups)' : '',
  };
}

const PROBE = Object.fromEntries(MASCOT_TEMPLATE_VARIABLES.map((name) => [name, ''])) as TemplateValues;

export function readBrandGuide(dir: string): BrandGuideContent {
  const content = readYamlContent(dir, MASCOT_FILE, BrandGuideContent);
  // Fail at start, not on the first request, when a template names an unknown placeholder.
  for (const t of content.sample_templates) fillTemplate(t.template, PROBE, MASCOT_FILE);
  return content;
}

export function buildBrandGuide(content: BrandGuideContent, snapshot: Snapshot, baseUrl: string): BrandGuide {
  const values = mascotValues(snapshot, baseUrl);
  return {
    schema_version: content.schema_version,
    mascot_name: content.mascot_name,
    bible_page: resolveSiteUrl(baseUrl, content.bible_path),
    handles: { ...content.handles },
    handle_status: { ...content.handle_status },
    voice: content.voice,
    tone: content.tone,
    cadence: content.cadence,
    posting_hours_utc: content.posting_hours_utc,
    hashtag_bank: content.hashtag_bank,
    sample_batch: {
      period: snapshot.period.slug,
      generated_from: values.signalsUrl,
      synthetic_demo_data: snapshot.synthetic,
      posts: content.sample_templates.map((t) => ({
        pillar: t.pillar,
        text: fillTemplate(t.template, values, MASCOT_FILE),
      })),
    },
    pillars: content.pillars,
  };
}
