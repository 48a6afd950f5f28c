import { SECTOR_SLUGS, type SectorSlug } from '../../schemas/enums.js';
import { isBotAuthor } from '../filter.js';
import { websiteFromBlog } from '../rank.js';
import type { WatchlistEntry } from '../../domain/records.js';
import type { GitHubClient, Meter } from '../../github/client.js';
import { orgDetailsQuery } from './queries.js';

/**
 * Optional discovery of candidate organisations per sector from GitHub topics. It proposes, it does not track:
 * the candidates are written as a watchlist fragment for the user to review and copy.
 *
 * Candidates are owners of type Organization of public non-fork repositories tagged with one of the sector's topics.
 * Excluded, with the reason recorded:
 * - already on the watchlist;
 * - bots (logins such as `*-bot` or `*[bot]`, the same rule the filter stage applies to commit authors);
 * - forks-only organisations (no public non-fork repository);
 * - large companies: more than DISCOVERY_MAX_PUBLIC_REPOS public repositories;
 * - foundations and institutions: a name, login or description naming a foundation, consortium, university,
 *   institute, government body, association or non-profit.
 * An organisation found under several sectors goes to the one with the most matching repositories (ties: the
 * sector listed first), since an organisation sits in one sector.
 */

const SECTOR_TOPICS: Record<SectorSlug, readonly string[]> = {
  healthcare: ['healthcare', 'health-tech', 'fhir', 'ehr', 'telemedicine'],
  edtech: ['edtech', 'education-technology', 'lms', 'e-learning'],
  'ecommerce-infrastructure': ['ecommerce', 'headless-commerce', 'checkout', 'storefront'],
  'supply-chain': ['supply-chain', 'logistics', 'warehouse-management', 'freight'],
  web3: ['web3', 'blockchain', 'smart-contracts', 'defi'],
  'enterprise-saas': ['saas', 'b2b-saas', 'workflow-automation', 'internal-tools'],
  'data-infrastructure': ['data-engineering', 'data-pipeline', 'database', 'data-observability'],
  robotics: ['robotics', 'ros2', 'autonomous-vehicles', 'motion-planning'],
  'legal-tech': ['legal-tech', 'legaltech', 'contract-management', 'compliance-automation'],
  'hr-tech': ['hr-tech', 'hrtech', 'recruiting', 'payroll'],
  proptech: ['proptech', 'real-estate', 'property-management', 'construction-tech'],
  agtech: ['agtech', 'agriculture', 'precision-agriculture', 'farming'],
  gaming: ['gamedev', 'game-engine', 'multiplayer', 'game-server'],
  'space-tech': ['space', 'satellite', 'aerospace', 'earth-observation'],
  'social-community': ['social-network', 'community', 'fediverse', 'chat'],
};

const DISCOVERY_MAX_PUBLIC_REPOS = 150;
const FOUNDATION_PATTERN =
  /\b(foundation|consortium|university|universit[äa]t|college|institute|institut|government|ministry|association|society|non-?profit|alliance|federation)\b/i;

export interface Candidate {
  entry: WatchlistEntry;
  matchedRepos: number;
  topics: string[];
  publicRepos: number;
}

export interface Exclusion {
  login: string;
  reason: 'tracked' | 'bot' | 'forks-only' | 'large' | 'foundation' | 'not-found';
  detail: string;
}

export interface DiscoveryResult {
  candidates: Candidate[];
  excluded: Exclusion[];
  meter: Meter;
}

interface SearchItem {
  name: string;
  fork: boolean;
  owner: { login: string; type: string } | null;
}

interface OrgDetails {
  login: string;
  name: string | null;
  description: string | null;
  location: string | null;
  websiteUrl: string | null;
  repositories: { totalCount: number };
  sources: { totalCount: number };
}

export interface DiscoveryOptions {
  sectors: readonly SectorSlug[];
  /** Logins already tracked (any case). */
  tracked: ReadonlySet<string>;
  /** Search pages (of 100 repositories) per topic. */
  pagesPerTopic: number;
  /** Candidates kept per sector. */
  perSector: number;
  orgsPerQuery: number;
}

export async function discoverCandidates(client: GitHubClient, options: DiscoveryOptions): Promise<DiscoveryResult> {
  const meter: Meter = { requests: 0, notModified: 0 };
  const tally = new Map<string, { login: string; bySector: Map<SectorSlug, { repos: number; topics: Set<string> }> }>();
  for (const sector of options.sectors) {
    for (const topic of SECTOR_TOPICS[sector]) {
      const items = await client.searchRepositories<SearchItem>(
        `topic:${topic} fork:false`,
        options.pagesPerTopic,
        meter,
      );
      for (const item of items) {
        if (!item.owner || item.owner.type !== 'Organization' || item.fork) continue;
        const key = item.owner.login.toLowerCase();
        const org = tally.get(key) ?? { login: item.owner.login, bySector: new Map() };
        const hit = org.bySector.get(sector) ?? { repos: 0, topics: new Set<string>() };
        hit.repos++;
        hit.topics.add(topic);
        org.bySector.set(sector, hit);
        tally.set(key, org);
      }
    }
  }

  const excluded: Exclusion[] = [];
  const pending: { login: string; sector: SectorSlug; repos: number; topics: string[] }[] = [];
  for (const [key, org] of tally) {
    if (options.tracked.has(key)) {
      excluded.push({ login: org.login, reason: 'tracked', detail: 'already on the watchlist' });
      continue;
    }
    if (isBotAuthor(org.login)) {
      excluded.push({ login: org.login, reason: 'bot', detail: 'login looks like automation' });
      continue;
    }
    const [sector, hit] = [...org.bySector].sort(
      ([a, x], [b, y]) => y.repos - x.repos || SECTOR_SLUGS.indexOf(a) - SECTOR_SLUGS.indexOf(b),
    )[0]!;
    pending.push({ login: org.login, sector, repos: hit.repos, topics: [...hit.topics].sort() });
  }

  const candidates: Candidate[] = [];
  for (let i = 0; i < pending.length; i += options.orgsPerQuery) {
    const group = pending.slice(i, i + options.orgsPerQuery);
    const variables: Record<string, unknown> = {};
    group.forEach((g, j) => (variables[`l${j}`] = g.login));
    const { data } = await client.graphql<Record<string, OrgDetails | null>>(
      orgDetailsQuery(group.length),
      variables,
      meter,
    );
    group.forEach((g, j) => {
      const org = data?.[`o${j}`];
      if (!org) {
        excluded.push({ login: g.login, reason: 'not-found', detail: 'no public organization by that login' });
        return;
      }
      if (org.sources.totalCount === 0) {
        excluded.push({ login: org.login, reason: 'forks-only', detail: 'no public repository of its own' });
        return;
      }
      if (org.repositories.totalCount > DISCOVERY_MAX_PUBLIC_REPOS) {
        excluded.push({
          login: org.login,
          reason: 'large',
          detail: `${org.repositories.totalCount} public repositories (more than ${DISCOVERY_MAX_PUBLIC_REPOS})`,
        });
        return;
      }
      const text = [org.login, org.name ?? '', org.description ?? ''].join(' ');
      const foundation = FOUNDATION_PATTERN.exec(text);
      if (foundation) {
        excluded.push({ login: org.login, reason: 'foundation', detail: `profile mentions "${foundation[0]}"` });
        return;
      }
      const website = websiteFromBlog(org.websiteUrl);
      candidates.push({
        entry: {
          login: org.login,
          displayName: org.name?.trim() || org.login,
          sector: g.sector,
          ...(website ? { website } : {}),
        },
        matchedRepos: g.repos,
        topics: g.topics,
        publicRepos: org.repositories.totalCount,
      });
    });
  }

  const kept: Candidate[] = [];
  for (const sector of options.sectors) {
    kept.push(
      ...candidates
        .filter((c) => c.entry.sector === sector)
        .sort((a, b) => b.matchedRepos - a.matchedRepos || (a.entry.login < b.entry.login ? -1 : 1))
        .slice(0, options.perSector),
    );
  }
  return { candidates: kept, excluded, meter };
}
