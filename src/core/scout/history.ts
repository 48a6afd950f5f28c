import type { Kysely } from 'kysely';
import {
  GitHubAuthError,
  GitHubNotFoundError,
  GitHubUnavailableError,
  type GitHubClient,
} from '../../github/client.js';
import { ServiceError, type ServiceErrorArgs } from '../../domain/errors.js';
import type { Database } from '../../store/schema.js';
import type { Star } from './score.js';

/**
 * Scout errors are service errors (an invalid username 400, an unknown GitHub user 404, GitHub unavailable 503 with
 * a retry time), answered by each surface's one conversion; the badge routes tell them apart from other errors.
 */
type ScoutErrorId =
  | 'invalid-username'
  | 'unknown-github-user'
  | 'github-recently-unreachable'
  | 'github-token-rejected'
  | 'github-unavailable'
  | 'github-budget-spent';

export class ScoutError<I extends ScoutErrorId = ScoutErrorId> extends ServiceError<I> {
  constructor(id: I, ...args: ServiceErrorArgs<I>) {
    super(id, ...args);
    this.name = 'ScoutError';
  }
}

export const STARS_PER_PAGE = 100;
/** An unknown user is remembered for at most an hour (it may be created meanwhile). */
const NOT_FOUND_TTL_SECONDS = 3600;
/** Retry-After when GitHub gave no hint (unreachable). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;
/**
 * After a look-up found GitHub unreachable (no answer at all, after the client's retries: about 14 s), further
 * look-ups within this many seconds fail at once instead of waiting as long again; the first one after it tries.
 */
export const UNREACHABLE_MEMORY_SECONDS = 30;

interface StoredPage {
  etag: string | null;
  stars: Star[];
}

/** A user's stars, oldest first, as last read from GitHub. */
export interface StarHistory {
  stars: Star[];
  /** More stars exist than the pages read. */
  truncated: boolean;
  fetchedAt: Date;
  /** How many GitHub requests this look-up sent (0 when served from the cache). */
  requests: number;
}

export interface HistoryOptions {
  ttlSeconds: number;
  maxPages: number;
  now?: () => number;
}

interface RepoShape {
  name?: unknown;
  owner?: { login?: unknown };
  language?: unknown;
  topics?: unknown;
}

function toStar(item: { starred_at: string; repo: unknown }): Star | undefined {
  const repo = item.repo as RepoShape | null;
  if (!repo || typeof repo.name !== 'string' || typeof repo.owner?.login !== 'string') return undefined;
  if (!Number.isFinite(Date.parse(item.starred_at))) return undefined;
  return {
    at: item.starred_at,
    owner: repo.owner.login,
    name: repo.name,
    language: typeof repo.language === 'string' ? repo.language : null,
    topics: Array.isArray(repo.topics)
      ? repo.topics.filter((t): t is string => typeof t === 'string').slice(0, 20)
      : [],
  };
}

/**
 * Star histories read from GitHub (oldest star first, at most `maxPages` pages of 100) and cached in the database.
 * Within the TTL a look-up costs no GitHub request; after it, each cached page is revalidated with its ETag (a 304
 * costs no quota). When GitHub cannot be used, a stale history is served rather than nothing; without one, the
 * look-up fails with 503 and the time GitHub gave for its return.
 */
export class StarHistories {
  private readonly inFlight = new Map<string, Promise<StarHistory>>();
  private readonly now: () => number;
  /** Until when GitHub counts as unreachable (see UNREACHABLE_MEMORY_SECONDS). */
  private unreachableUntil = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly client: GitHubClient,
    private readonly options: HistoryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Only call with a username already checked against GitHub's rule. */
  get(username: string): Promise<StarHistory> {
    const key = username.toLowerCase();
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.load(username, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async load(username: string, key: string): Promise<StarHistory> {
    const row = await this.db
      .selectFrom('scout_star_cache')
      .selectAll()
      .where('login_key', '=', key)
      .executeTakeFirst();
    const cachedPages = (row?.pages ?? []) as StoredPage[];
    if (row) {
      const age = (this.now() - new Date(row.fetched_at).getTime()) / 1000;
      const ttl = row.found ? this.options.ttlSeconds : Math.min(this.options.ttlSeconds, NOT_FOUND_TTL_SECONDS);
      if (age < ttl) {
        if (!row.found) throw unknownUser(username);
        return {
          stars: cachedPages.flatMap((p) => p.stars),
          truncated: row.truncated,
          fetchedAt: row.fetched_at,
          requests: 0,
        };
      }
    }
    const stale = row?.found
      ? { stars: cachedPages.flatMap((p) => p.stars), truncated: row.truncated, fetchedAt: row.fetched_at, requests: 0 }
      : undefined;

    const spentFor = this.client.coreBudgetSpentFor(this.now());
    if (spentFor !== undefined) {
      if (stale) return stale;
      throw budgetSpent(spentFor);
    }
    const unreachableFor = Math.ceil((this.unreachableUntil - this.now()) / 1000);
    if (unreachableFor > 0) {
      if (stale) return stale;
      throw new ScoutError(
        'github-recently-unreachable',
        { memorySeconds: UNREACHABLE_MEMORY_SECONDS, retryInSeconds: unreachableFor },
        { retryAfterSeconds: unreachableFor },
      );
    }

    const before = this.client.total.requests;
    try {
      const { pages, truncated } = await this.fetchPages(username, cachedPages);
      const fetchedAt = new Date(this.now());
      await this.save(key, true, pages, truncated, fetchedAt);
      return {
        stars: pages.flatMap((p) => p.stars),
        truncated,
        fetchedAt,
        requests: this.client.total.requests - before,
      };
    } catch (err) {
      if (err instanceof GitHubNotFoundError) {
        await this.save(key, false, [], false, new Date(this.now()));
        throw unknownUser(username);
      }
      if (err instanceof GitHubUnavailableError || err instanceof GitHubAuthError) {
        // No answer at all (not a status GitHub sent): remember it for a while (UNREACHABLE_MEMORY_SECONDS).
        if (err instanceof GitHubUnavailableError && err.status === undefined) {
          this.unreachableUntil = this.now() + UNREACHABLE_MEMORY_SECONDS * 1000;
        }
        if (stale) return stale;
        const retryAfter =
          err instanceof GitHubUnavailableError
            ? (err.retryAfterSeconds ?? this.client.coreBudgetSpentFor(this.now()) ?? DEFAULT_RETRY_AFTER_SECONDS)
            : DEFAULT_RETRY_AFTER_SECONDS;
        throw new ScoutError(
          err instanceof GitHubAuthError ? 'github-token-rejected' : 'github-unavailable',
          {},
          {
            retryAfterSeconds: retryAfter,
          },
        );
      }
      throw err;
    }
  }

  private async fetchPages(
    username: string,
    cached: StoredPage[],
  ): Promise<{ pages: StoredPage[]; truncated: boolean }> {
    const pages: StoredPage[] = [];
    let more = false;
    for (let page = 1; page <= this.options.maxPages; page++) {
      const previous = cached[page - 1];
      const result = await this.client.starredPage(username, page, STARS_PER_PAGE, previous?.etag);
      if (result.status === 304) {
        if (!previous) throw new GitHubUnavailableError('GitHub answered 304 to an unconditional request', 304);
        pages.push(previous);
        // An unchanged full page may have a successor; an unchanged partial page is the last one.
        more = previous.stars.length === STARS_PER_PAGE;
      } else {
        pages.push({ etag: result.etag, stars: result.items.map(toStar).filter((s): s is Star => s !== undefined) });
        more = result.hasNext;
      }
      if (!more) break;
    }
    return { pages, truncated: more };
  }

  private async save(key: string, found: boolean, pages: StoredPage[], truncated: boolean, fetchedAt: Date) {
    const values = { found, pages: JSON.stringify(pages), truncated, fetched_at: fetchedAt };
    await this.db
      .insertInto('scout_star_cache')
      .values({ login_key: key, ...values })
      .onConflict((oc) => oc.column('login_key').doUpdateSet(values))
      .execute();
  }
}

function unknownUser(username: string): ScoutError {
  return new ScoutError('unknown-github-user', { username });
}

function budgetSpent(seconds: number): ScoutError {
  return new ScoutError('github-budget-spent', {}, { retryAfterSeconds: seconds });
}
