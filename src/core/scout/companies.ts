import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ValidatedCompany } from '../../schemas/scout.js';
import { ContentError, repoPath } from '../answers/content-files.js';

/**
 * The validated companies the Scout Score is measured against: data/scout/validated-companies.yaml, one record per
 * company (GitHub organisation, main repository, a dated milestone and its public source). Read and checked once.
 */
export const VALIDATED_COMPANIES_FILE = repoPath('data', 'scout', 'validated-companies.yaml');

/** GitHub opened to the public in 2008: a milestone before that could not have been starred early. */
export const EARLIEST_MILESTONE = '2008-01-01';

export interface CompanyList {
  companies: ValidatedCompany[];
  /** Lower-case organisation login → company. */
  byOrg: Map<string, ValidatedCompany>;
}

/** A real calendar day (2021-02-30 is not), from GitHub's launch to `today`. */
export function plausibleMilestoneDate(date: string, today = new Date()): boolean {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(time) || new Date(time).toISOString().slice(0, 10) !== date) return false;
  return date >= EARLIEST_MILESTONE && time <= today.getTime();
}

export function parseCompanies(document: unknown, file: string, today = new Date()): CompanyList {
  const parsed = z
    .array(ValidatedCompany.strict())
    .min(1)
    .safeParse(document ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(file, `${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  const byOrg = new Map<string, ValidatedCompany>();
  for (const [index, company] of parsed.data.entries()) {
    if (!plausibleMilestoneDate(company.date, today)) {
      throw new ContentError(file, `${index}.date: ${company.date} is not a real day between 2008 and today`);
    }
    const key = company.org.toLowerCase();
    if (byOrg.has(key)) throw new ContentError(file, `${index}.org: ${company.org} is listed twice`);
    byOrg.set(key, company);
  }
  return { companies: parsed.data, byOrg };
}

let cached: CompanyList | undefined;

/** The list from the data file, loaded on first use (a bad file fails loudly, naming the record). */
export function validatedCompanies(): CompanyList {
  if (!cached) {
    let document: unknown;
    try {
      document = parseYaml(readFileSync(VALIDATED_COMPANIES_FILE, 'utf8'));
    } catch (err) {
      throw new ContentError(VALIDATED_COMPANIES_FILE, `not readable YAML (${(err as Error).message})`);
    }
    cached = parseCompanies(document, VALIDATED_COMPANIES_FILE);
  }
  return cached;
}
