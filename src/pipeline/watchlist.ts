import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { SectorSlug, Stage } from '../schemas/enums.js';
import type { WatchlistEntry } from '../domain/records.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { isCountryCode } from './geography.js';

/**
 * The watchlist: the organisations a user tracks, in a file the user owns (YAML or JSON). Either a list of entries
 * or an object with an `orgs` list:
 *
 *   orgs:
 *     - login: medplum          # GitHub organisation login
 *       name: Medplum           # display name
 *       sector: healthcare      # one of the 15 sector slugs
 *       stage: Seed             # optional: Pre-seed, Seed, Series A/B, Growth (estimated when absent)
 *       stageSource: https://…  # optional: the public page stating the stage (only with stage)
 *       country: US             # optional: ISO 3166-1 alpha-2 (the geography is estimated when absent)
 *       countrySource: https://…  # optional: the public page stating the country (only with country)
 *       website: https://…      # optional
 *       linkedin: https://…     # optional
 *       repository: medplum/medplum  # optional: one public repository of the organisation (evidence it exists)
 *       repositories:           # optional: more repositories of the organisation, for the git source
 *         - medplum/foomedical
 *
 * An organisation sits in exactly one sector, so a login may appear only once. A source is an https URL and
 * never stands alone: `stageSource` needs `stage`, `countrySource` needs `country`. The curated watchlist shipped
 * in data/watchlist.yaml also names a source for every stage and country it states (test/data/watchlist.test.ts).
 */

/** GitHub login rules: alphanumerics and single hyphens, not starting or ending with one, at most 39 characters. */
export const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

const httpUrl = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http(s) URL' },
  );

const httpsUrl = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        return new URL(v).protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute https URL' },
  );

/** `owner/name` of a GitHub repository. */
const REPOSITORY = /^([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})\/([A-Za-z0-9._-]{1,100})$/;

export const WatchlistEntrySchema = z
  .object({
    login: z
      .string()
      .trim()
      .regex(GITHUB_LOGIN, 'must be a GitHub organisation login (letters, digits, single hyphens)'),
    name: z.string().trim().min(1, 'must not be empty').max(100),
    sector: SectorSlug,
    stage: Stage.optional(),
    stageSource: httpsUrl.optional(),
    country: z
      .string()
      .trim()
      .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code in capitals, such as US or DE' })
      .optional(),
    countrySource: httpsUrl.optional(),
    description: z.string().trim().max(500).optional(),
    website: httpUrl.optional(),
    linkedin: httpUrl.optional(),
    repository: z.string().trim().regex(REPOSITORY, 'must be a GitHub repository as owner/name').optional(),
    repositories: z
      .array(z.string().trim().regex(REPOSITORY, 'must be a GitHub repository as owner/name'))
      .max(500)
      .optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.stageSource !== undefined && entry.stage === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['stageSource'],
        message: 'names the source of a stage, but no stage is given',
      });
    }
    if (entry.countrySource !== undefined && entry.country === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['countrySource'],
        message: 'names the source of a country, but no country is given',
      });
    }
    const named: [string, (string | number)[]][] = [
      ...(entry.repository ? [[entry.repository, ['repository']] as [string, (string | number)[]]] : []),
      ...(entry.repositories ?? []).map((r, i): [string, (string | number)[]] => [r, ['repositories', i]]),
    ];
    const seen = new Set<string>();
    for (const [repository, where] of named) {
      const owner = REPOSITORY.exec(repository)?.[1];
      if (owner !== undefined && owner.toLowerCase() !== entry.login.toLowerCase()) {
        ctx.addIssue({
          code: 'custom',
          path: where,
          message: `must be a repository of the organisation ${entry.login}, not of ${owner}`,
        });
      }
      if (where[0] === 'repositories' && seen.has(repository.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: where, message: `${repository} is listed twice` });
      }
      seen.add(repository.toLowerCase());
    }
  });

const WatchlistFileSchema = z.union([
  z.array(z.unknown()),
  z.object({ orgs: z.array(z.unknown()) }).transform((v) => v.orgs),
]);

export class WatchlistError extends Error {
  override name = 'WatchlistError';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/** Validates parsed watchlist data; `source` names the file in messages. */
export function parseWatchlist(data: unknown, source = 'watchlist'): WatchlistEntry[] {
  const file = WatchlistFileSchema.safeParse(data);
  if (!file.success) throw new WatchlistError(`${source}: expected a list of organisations or {orgs: [...]}`);
  const problems: string[] = [];
  const entries: WatchlistEntry[] = [];
  const seen = new Map<string, number>();
  file.data.forEach((raw, i) => {
    const parsed = WatchlistEntrySchema.safeParse(raw);
    const label = `entry ${i + 1}${typeof (raw as { login?: unknown })?.login === 'string' ? ` (${(raw as { login: string }).login})` : ''}`;
    if (!parsed.success) {
      problems.push(`${label}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
      return;
    }
    const key = parsed.data.login.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`${label}: ${parsed.data.login} is already entry ${first + 1}; an organisation sits in one sector`);
      return;
    }
    seen.set(key, i);
    entries.push({
      login: parsed.data.login,
      displayName: parsed.data.name,
      sector: parsed.data.sector,
      stage: parsed.data.stage,
      description: parsed.data.description,
      website: parsed.data.website,
      linkedin: parsed.data.linkedin,
      ...(parsed.data.stageSource !== undefined ? { stageSource: parsed.data.stageSource } : {}),
      ...(parsed.data.country !== undefined ? { country: parsed.data.country } : {}),
      ...(parsed.data.countrySource !== undefined ? { countrySource: parsed.data.countrySource } : {}),
      ...(parsed.data.repository !== undefined ? { repository: parsed.data.repository } : {}),
      ...(parsed.data.repositories?.length ? { repositories: parsed.data.repositories } : {}),
    });
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
    throw new WatchlistError(`${source} is not valid:\n  ${shown.join('\n  ')}${more}`);
  }
  if (entries.length === 0) throw new WatchlistError(`${source} lists no organisations`);
  return entries;
}

/** The curated watchlist of real startups shipped with the service. */
export const SHIPPED_WATCHLIST = path.join(PACKAGE_ROOT, 'data', 'watchlist.yaml');

export interface WatchlistChoice {
  file: string;
  /** True when the user named no watchlist and has none at the default path, so the shipped one is used. */
  shipped: boolean;
}

/**
 * Which watchlist a pipeline command reads: `--watchlist`, else PIPELINE_WATCHLIST when it is set, else
 * ./watchlist.yaml when it exists, else the curated one shipped in data/watchlist.yaml. A file the user names is
 * never replaced by the shipped one: a missing named file is an error (readWatchlist says so).
 */
export function chooseWatchlist(options: {
  flag: string | undefined;
  /** PIPELINE_WATCHLIST as the user set it, or undefined. */
  configured: string | undefined;
  /** The default path (./watchlist.yaml, resolved). */
  defaultFile: string;
  exists: (file: string) => boolean;
}): WatchlistChoice {
  if (options.flag !== undefined) return { file: path.resolve(options.flag), shipped: false };
  if (options.configured !== undefined && options.configured.trim() !== '') {
    return { file: path.resolve(options.configured), shipped: false };
  }
  if (options.exists(options.defaultFile)) return { file: options.defaultFile, shipped: false };
  return { file: SHIPPED_WATCHLIST, shipped: true };
}

/** Reads a watchlist file: `.json` as JSON, anything else as YAML (which also accepts JSON). */
export async function readWatchlist(file: string): Promise<WatchlistEntry[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new WatchlistError(
      code === 'ENOENT'
        ? `watchlist ${file} does not exist: copy watchlist.example.yaml, or pass --watchlist FILE`
        : `watchlist ${file} cannot be read: ${(err as Error).message}`,
    );
  }
  let data: unknown;
  try {
    data = path.extname(file).toLowerCase() === '.json' ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new WatchlistError(
      `watchlist ${file} is not valid ${path.extname(file) === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`,
    );
  }
  return parseWatchlist(data, `watchlist ${file}`);
}

/** Renders entries as a watchlist YAML document (used by discovery to write candidates). */
export function watchlistYaml(
  entries: readonly WatchlistEntry[],
  comments: ReadonlyMap<string, string> = new Map(),
): string {
  const doc = new YAML.Document({
    orgs: entries.map((e) => ({
      login: e.login,
      name: e.displayName,
      sector: e.sector,
      ...(e.stage ? { stage: e.stage } : {}),
      ...(e.stageSource ? { stageSource: e.stageSource } : {}),
      ...(e.country ? { country: e.country } : {}),
      ...(e.countrySource ? { countrySource: e.countrySource } : {}),
      ...(e.website ? { website: e.website } : {}),
      ...(e.linkedin ? { linkedin: e.linkedin } : {}),
      ...(e.repository ? { repository: e.repository } : {}),
      ...(e.repositories?.length ? { repositories: e.repositories } : {}),
    })),
  });
  const list = doc.get('orgs') as YAML.YAMLSeq;
  list.items.forEach((item, i) => {
    const comment = comments.get(entries[i]!.login.toLowerCase());
    if (comment) (item as YAML.YAMLMap).commentBefore = ` ${comment}`;
  });
  return doc.toString({ lineWidth: 0 });
}
