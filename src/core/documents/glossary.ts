import type { z } from 'zod';
import {
  ChangelogPeriod,
  GlossaryContent,
  Market,
  MarketCandidate,
  Pricing,
  PricingTier,
  type Glossary,
} from '../../schemas/documents.js';
import { SECTOR_SLUGS, SIGNAL_TYPES, STAGES } from '../../schemas/enums.js';
import { DatasetRecord, Meta, Sector, SignalsResponse, Startup } from '../../schemas/signals.js';
import { CONTENT_VALUES } from '../../content/values.js';
import { DocumentContentError, fillTemplate, readYamlContent } from './content.js';
import { DATA_LICENSE } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The glossary: 18 terms in content/glossary.yaml. Numbers in the descriptions are placeholders filled from the
 * constants the code runs on, and every `usedIn` reference is checked against the schemas, so a term cannot
 * describe a field the API does not have.
 */
export const GLOSSARY_FILE = 'glossary.yaml';

type Shape = { shape: Record<string, unknown> };
const OBJECTS: Record<string, Shape> = {
  Startup,
  Sector,
  Meta,
  SignalsResponse,
  DatasetRecord,
  ChangelogPeriod,
  PricingTier,
  Pricing,
  Market,
  MarketCandidate,
} satisfies Record<string, z.ZodObject>;
const ENUMS: Record<string, readonly string[]> = {
  SignalType: SIGNAL_TYPES,
  Stage: STAGES,
  SectorSlug: SECTOR_SLUGS,
};

/** True when `ref` ("Startup.contributors", "SignalType.Framework migration") names something the API has. */
export function usageExists(ref: string): boolean {
  const dot = ref.indexOf('.');
  if (dot < 1) return false;
  const [owner, member] = [ref.slice(0, dot), ref.slice(dot + 1)];
  if (owner in OBJECTS) return Object.hasOwn(OBJECTS[owner]!.shape, member);
  if (owner in ENUMS) return ENUMS[owner]!.includes(member);
  return false;
}

/** Checks what the schema cannot: unique slugs and names, placeholders that exist, usages that exist. */
export function checkGlossary(content: GlossaryContent, where = GLOSSARY_FILE): GlossaryContent {
  const seen = new Set<string>();
  const terms = content.terms.map((term) => {
    for (const key of [`slug:${term.slug}`, `name:${term.name.toLowerCase()}`]) {
      if (seen.has(key)) throw new DocumentContentError(where, `duplicate term ${key}`);
      seen.add(key);
    }
    for (const ref of term.usedIn) {
      if (!usageExists(ref))
        throw new DocumentContentError(where, `term ${term.slug}: usedIn ${ref} is not in the API`);
    }
    return { ...term, description: fillTemplate(term.description, CONTENT_VALUES, `${where} (${term.slug})`) };
  });
  return { terms };
}

export function readGlossary(dir: string): GlossaryContent {
  return checkGlossary(readYamlContent(dir, GLOSSARY_FILE, GlossaryContent));
}

export function buildGlossary(content: GlossaryContent, baseUrl: string): Glossary {
  const urls = siteUrls(baseUrl);
  const setUrl = urls.api('/api/v1/glossary.json');
  return {
    '@context': 'https://schema.org',
    '@type': 'DefinedTermSet',
    '@id': setUrl,
    name: 'Signal Service glossary',
    description: `The ${content.terms.length} terms the Signal Service API uses, with what each means in the published data.`,
    url: urls.api('/glossary'),
    inLanguage: 'en',
    license: DATA_LICENSE.url,
    hasDefinedTerm: content.terms.map((term) => ({
      '@type': 'DefinedTerm',
      '@id': urls.glossary(term.slug),
      termCode: term.slug,
      name: term.name,
      description: term.description,
      url: urls.glossary(term.slug),
      inDefinedTermSet: setUrl,
      usedIn: [...term.usedIn],
    })),
  };
}
