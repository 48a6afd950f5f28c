import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AcquisitionFact, BackingFact } from '../../schemas/answers.js';
import { ContentError, repoPath } from '../answers/content-files.js';

/**
 * The diligence corpus: documented acquisitions and publicly disclosed backers of developer-tool and infrastructure
 * companies, kept in data/diligence/*.yaml so it is easy to extend. Loaded once and checked against a schema: every
 * fact needs at least one source URL (a press release, a regulatory filing, or both sides' disclosures).
 */
export const DILIGENCE_DIR = repoPath('data', 'diligence');

export const SOURCE_THRESHOLD =
  'Facts are limited to press releases, regulatory filings, or facts disclosed by both sides; each fact carries the URL of its source. Press reports alone do not qualify.';

const Acquisitions = z.array(AcquisitionFact.strict()).min(1);
const Backers = z.array(BackingFact.strict());
const Name = z.string().trim().min(1).max(100);
const Entities = z.array(
  z
    .object({
      name: Name,
      /** Other names of the same entity: legal names, tickers, short forms. A query equal to one is a match. */
      aliases: z.array(Name).default([]),
      /** Names the same entity used before (a match, and the dossier says so). */
      formerNames: z.array(Name).default([]),
      /** Other entities a name could be confused with (a product, a parent, a separate firm): never a match. */
      related: z.array(z.object({ name: Name, relation: z.string().trim().min(1).max(300) }).strict()).default([]),
    })
    .strict(),
);

export interface DiligenceEntity {
  name: string;
  aliases: string[];
  formerNames: string[];
  related: { name: string; relation: string }[];
  acquiredBy: AcquisitionFact[];
  acquisitionsMade: AcquisitionFact[];
  backedBy: BackingFact[];
  /** Rounds this entity led or co-led as an investor. */
  investments: BackingFact[];
}

export interface DiligenceCorpus {
  acquisitions: AcquisitionFact[];
  backers: BackingFact[];
  /** Every company or fund named by a fact, by canonical name. */
  entities: DiligenceEntity[];
}

function readYaml<T>(file: string, schema: z.ZodType<T>): T {
  let document: unknown;
  try {
    document = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ContentError(file, `not readable YAML (${(err as Error).message})`);
  }
  const parsed = schema.safeParse(document ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(file, `${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  return parsed.data;
}

export function readDiligenceCorpus(dir: string = DILIGENCE_DIR): DiligenceCorpus {
  const acquisitions = readYaml(path.join(dir, 'acquisitions.yaml'), Acquisitions);
  const backers = readYaml(path.join(dir, 'backers.yaml'), Backers);
  const aliases = readYaml(path.join(dir, 'entities.yaml'), Entities);

  const entities = new Map<string, DiligenceEntity>();
  const entity = (name: string): DiligenceEntity => {
    let found = entities.get(name);
    if (!found) {
      found = {
        name,
        aliases: [],
        formerNames: [],
        related: [],
        acquiredBy: [],
        acquisitionsMade: [],
        backedBy: [],
        investments: [],
      };
      entities.set(name, found);
    }
    return found;
  };
  for (const deal of acquisitions) {
    entity(deal.target).acquiredBy.push(deal);
    entity(deal.acquirer).acquisitionsMade.push(deal);
  }
  for (const round of backers) {
    entity(round.company).backedBy.push(round);
    entity(round.investor).investments.push(round);
  }
  for (const { name, aliases: names, formerNames, related } of aliases) {
    const known = entities.get(name);
    if (!known) {
      throw new ContentError(path.join(dir, 'entities.yaml'), `${name} is not named by any acquisition or backer`);
    }
    known.aliases.push(...names);
    known.formerNames.push(...formerNames);
    known.related.push(...related);
  }
  const byDate = (a: { announced: string }, b: { announced: string }) => (a.announced < b.announced ? 1 : -1);
  for (const e of entities.values()) {
    e.acquiredBy.sort(byDate);
    e.acquisitionsMade.sort(byDate);
    e.backedBy.sort(byDate);
    e.investments.sort(byDate);
  }
  return {
    acquisitions,
    backers,
    entities: [...entities.values()].sort((a, b) => a.name.localeCompare(b.name, 'en')),
  };
}

let cached: DiligenceCorpus | undefined;

/** The repository's diligence corpus, read and checked once per process. */
export function loadDiligenceCorpus(): DiligenceCorpus {
  return (cached ??= readDiligenceCorpus());
}
