import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';

/**
 * The GitHub client shared by the pipeline's collect stage and the Scout Score: Octokit with its throttling plugin (primary limits wait for
 * `x-ratelimit-reset`, secondary limits for `Retry-After`; bounded concurrency; GraphQL queries spaced out) and its
 * retry plugin (5xx with backoff), plus what the collector needs on top: conditional requests, statistics endpoints
 * that answer 202 while GitHub computes, and counting of every HTTP request actually sent.
 */

export interface GitHubClientOptions {
  /** Without a token GitHub allows 60 REST requests an hour per client address (the Scout Score can run so). */
  token: string | undefined;
  apiUrl: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Minimum pause between two GraphQL queries. */
  queryIntervalMs: number;
  /** Base of the backoff for 5xx answers and for statistics still being computed. */
  retryBaseMs: number;
  /** Called when the client waits for a rate limit, so the caller can tell the user. */
  onWait?: (event: { kind: 'rate-limit' | 'secondary-limit'; seconds: number; url: string }) => void;
  /**
   * Longest rate-limit wait worth sitting through, in seconds (default: no bound). A request serving a user sets a
   * few seconds and fails with GitHubUnavailableError (and its retryAfterSeconds) rather than wait for the reset.
   */
  maxWaitSeconds?: number;
  /** The User-Agent GitHub sees (default `signal-service-pipeline`). */
  userAgent?: string;
}

/** The token is missing or rejected: nothing can be collected until it is fixed. */
export class GitHubAuthError extends Error {
  override name = 'GitHubAuthError';
}

/** GitHub answered 404: the organisation or repository does not exist (any more) or is not visible. */
export class GitHubNotFoundError extends Error {
  override name = 'GitHubNotFoundError';
}

/** GitHub could not be used for now (5xx after retries, network failure, rate limits exhausted). */
export class GitHubUnavailableError extends Error {
  override name = 'GitHubUnavailableError';
  constructor(
    message: string,
    readonly status: number | undefined,
    /** When GitHub said to come back (Retry-After, or the rate-limit window's end), in seconds from now. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Counts requests for one piece of work (one organisation or one batch). */
export interface Meter {
  requests: number;
  notModified: number;
}

export function newMeter(): Meter {
  return { requests: 0, notModified: 0 };
}

export interface RateLimitState {
  /** Last `x-ratelimit-remaining` seen per resource (core = REST, graphql, search). */
  remaining: Record<string, number>;
  /** Last `x-ratelimit-reset` seen per resource, epoch seconds. */
  reset: Record<string, number>;
}

export interface GraphqlErrorItem {
  type?: string;
  message: string;
  path?: (string | number)[];
}

export type ConditionalResult<T> = { status: 200; data: T; etag: string | null } | { status: 304; etag: string | null };

/** One page of a user's stars with their starring times (`application/vnd.github.star+json`). */
export type StarredPageResult =
  | { status: 200; items: { starred_at: string; repo: unknown }[]; etag: string | null; hasNext: boolean }
  | { status: 304; etag: string | null };

export type CommitActivityResult =
  | { kind: 'ok'; weeks: { week: number; days: number[]; total: number }[] }
  | { kind: 'empty' }
  | { kind: 'too-large'; message: string }
  | { kind: 'not-ready'; attempts: number };

const MAX_PRIMARY_RETRIES = 3;
const MAX_SECONDARY_RETRIES = 5;
const STATS_ATTEMPTS = 6;

const ClientClass = Octokit.plugin(throttling, retry, paginateRest);
type Client = InstanceType<typeof ClientClass>;

interface HttpishError {
  status?: number;
  message: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

function describe(err: HttpishError): string {
  const data = err.response?.data as { message?: string } | undefined;
  return data?.message ?? err.message;
}

/** A file of a comparison, as GitHub lists it. */
/** A branch's tip at an instant, as its list of activities tells it (see GitHubClient.branchTipsAt). */
export interface BranchTip {
  oid: string | null;
  reached: boolean;
  pages: number;
}

export interface CompareFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions: number;
  deletions: number;
  previous_filename?: string;
}

/** GitHub lists at most this many files of a comparison. */
export const COMPARE_FILES_MAX = 300;

export class GitHubClient {
  readonly total: Meter = newMeter();
  readonly rate: RateLimitState = { remaining: {}, reset: {} };
  private readonly octokit: Client;
  private readonly retryBaseMs: number;
  private authFailure: GitHubAuthError | undefined;

  constructor(private readonly options: GitHubClientOptions) {
    this.retryBaseMs = options.retryBaseMs;
    const id = `signal-service-${process.pid}-${Math.random().toString(36).slice(2)}`;
    // Octokit's own groups are shared by every client in the process; these are this client's, sized by config.
    // (`global` is read by the plugin but missing from its option type.)
    const maxWait = options.maxWaitSeconds ?? Infinity;
    const throttle = {
      id,
      global: new Bottleneck.Group({ maxConcurrent: options.concurrency }),
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: options.queryIntervalMs }),
      onRateLimit: (retryAfter: number, req: { url: string }, _octokit: unknown, retryCount: number) => {
        if (retryAfter > maxWait) return false;
        options.onWait?.({ kind: 'rate-limit', seconds: retryAfter, url: req.url });
        return retryCount < MAX_PRIMARY_RETRIES;
      },
      onSecondaryRateLimit: (retryAfter: number, req: { url: string }, _octokit: unknown, retryCount: number) => {
        if (retryAfter > maxWait) return false;
        options.onWait?.({ kind: 'secondary-limit', seconds: retryAfter, url: req.url });
        return retryCount < MAX_SECONDARY_RETRIES;
      },
    };
    this.octokit = new ClientClass({
      auth: options.token,
      baseUrl: options.apiUrl,
      userAgent: options.userAgent ?? 'signal-service-pipeline',
      request: { fetch: this.meteredFetch(undefined) },
      throttle,
      // 429 is the throttling plugin's to handle (it honours Retry-After); 5xx are retried here with backoff.
      retry: {
        retries: 3,
        doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
        retryAfterBaseValue: this.retryBaseMs,
      },
    });
  }

  /** A fetch that counts what is really sent (retries included) and remembers the rate-limit headers. */
  private meteredFetch(meter: Meter | undefined): typeof fetch {
    return async (input, init) => {
      this.total.requests++;
      if (meter) meter.requests++;
      const response = await fetch(input, init);
      if (response.status === 304) {
        this.total.notModified++;
        if (meter) meter.notModified++;
      }
      const resource = response.headers.get('x-ratelimit-resource') ?? 'core';
      const remaining = response.headers.get('x-ratelimit-remaining');
      const reset = response.headers.get('x-ratelimit-reset');
      if (remaining !== null && Number.isFinite(Number(remaining))) this.rate.remaining[resource] = Number(remaining);
      if (reset !== null && Number.isFinite(Number(reset))) this.rate.reset[resource] = Number(reset);
      return response;
    };
  }

  private translate(err: unknown, what: string): Error {
    const e = err as HttpishError;
    if (e.status === 401) {
      this.authFailure ??= new GitHubAuthError(
        `GitHub rejected the token (401 ${describe(e)}): check GITHUB_TOKEN (a classic or fine-grained token; public data needs no scopes)`,
      );
      return this.authFailure;
    }
    if (e.status === 404) return new GitHubNotFoundError(`${what}: 404 ${describe(e)}`);
    if (e.status === 403 || e.status === 429) {
      return new GitHubUnavailableError(
        `${what}: ${e.status} ${describe(e)} (rate limit still exceeded after waiting)`,
        e.status,
        retryAfterOf(e.response?.headers),
      );
    }
    // No response at all (refused, reset, DNS, timeout): Octokit reports it with status 500 but no response.
    if (e.status === undefined || e.response === undefined) {
      return new GitHubUnavailableError(`${what}: GitHub could not be reached (${describe(e)})`, undefined);
    }
    if (typeof e.status === 'number' && e.status >= 500) {
      return new GitHubUnavailableError(`${what}: GitHub answered ${e.status} ${describe(e)} after retries`, e.status);
    }
    return new GitHubUnavailableError(`${what}: ${e.status} ${describe(e)}`, e.status);
  }

  /** Once the token is known to be bad, every further call fails at once instead of spending requests. */
  private guard(): void {
    if (this.authFailure) throw this.authFailure;
  }

  /** A GET with `If-None-Match`; a 304 costs no quota. */
  async getConditional<T>(
    route: string,
    params: Record<string, string | number>,
    etag: string | null | undefined,
    meter?: Meter,
  ): Promise<ConditionalResult<T>> {
    this.guard();
    try {
      const res = await this.octokit.request(route, {
        ...params,
        headers: { 'x-github-api-version': '2022-11-28', ...(etag ? { 'if-none-match': etag } : {}) },
        request: { fetch: this.meteredFetch(meter) },
      });
      return { status: 200, data: res.data as T, etag: res.headers.etag ?? null };
    } catch (err) {
      const e = err as HttpishError;
      if (e.status === 304) return { status: 304, etag: e.response?.headers?.etag ?? etag ?? null };
      throw this.translate(err, `GET ${route.replace(/^GET /, '')}`);
    }
  }

  /**
   * A GraphQL query. Partial answers are normal (one organisation of a batch not found): the data is returned with
   * the errors, and only transport-level failures throw.
   */
  async graphql<T>(
    query: string,
    variables: Record<string, unknown>,
    meter?: Meter,
  ): Promise<{ data: T; errors: GraphqlErrorItem[] }> {
    this.guard();
    try {
      const data = await this.octokit.graphql<T>(query, { ...variables, request: { fetch: this.meteredFetch(meter) } });
      return { data, errors: [] };
    } catch (err) {
      const e = err as { name?: string; data?: T; errors?: GraphqlErrorItem[] };
      if (e.name === 'GraphqlResponseError' && e.data) return { data: e.data, errors: e.errors ?? [] };
      if (e.name === 'GraphqlResponseError') {
        throw new GitHubUnavailableError(
          `GraphQL query failed: ${(e.errors ?? []).map((x) => x.message).join('; ')}`,
          200,
        );
      }
      throw this.translate(err, 'POST /graphql');
    }
  }

  /**
   * Daily commit counts of a repository for the last year. GitHub answers 202 while it computes the statistics;
   * the request is repeated with a doubling backoff. 422 means the repository is too large for statistics.
   */
  async commitActivity(owner: string, repo: string, meter?: Meter): Promise<CommitActivityResult> {
    for (let attempt = 1; attempt <= STATS_ATTEMPTS; attempt++) {
      this.guard();
      try {
        const res = await this.octokit.request('GET /repos/{owner}/{repo}/stats/commit_activity', {
          owner,
          repo,
          headers: { 'x-github-api-version': '2022-11-28' },
          request: { fetch: this.meteredFetch(meter) },
        });
        if ((res.status as number) === 204) return { kind: 'empty' };
        if ((res.status as number) === 202) {
          await sleep(this.retryBaseMs * 2 ** (attempt - 1));
          continue;
        }
        return { kind: 'ok', weeks: res.data as { week: number; days: number[]; total: number }[] };
      } catch (err) {
        const e = err as HttpishError;
        if (e.status === 422) return { kind: 'too-large', message: describe(e) };
        throw this.translate(err, `GET /repos/${owner}/${repo}/stats/commit_activity`);
      }
    }
    return { kind: 'not-ready', attempts: STATS_ATTEMPTS };
  }

  /** Repository search, following `Link: rel="next"` for at most `maxPages` pages of 100. */
  async searchRepositories<T>(q: string, maxPages: number, meter?: Meter): Promise<T[]> {
    this.guard();
    const items: T[] = [];
    let pages = 0;
    try {
      const iterate = this.octokit.paginate.iterator as (
        route: string,
        params: Record<string, unknown>,
      ) => AsyncIterable<{ data: unknown }>;
      for await (const page of iterate('GET /search/repositories', {
        q,
        sort: 'updated',
        order: 'desc',
        per_page: 100,
        headers: { 'x-github-api-version': '2022-11-28' },
        request: { fetch: this.meteredFetch(meter) },
      })) {
        items.push(...(page.data as unknown as T[]));
        if (++pages >= maxPages) break;
      }
    } catch (err) {
      throw this.translate(err, 'GET /search/repositories');
    }
    return items;
  }

  /**
   * The tips of a branch at several instants, from one pass over the repository's list of activities (pushes, merges,
   * force pushes), newest first: for each instant, the commit the last activity on the branch at or before it left
   * the branch at. Pages of 100 are read until every instant is reached, at most `maxPages`. `reached` is false for
   * an instant the list (or the page budget) ended before: the tip then is not known from it.
   */
  async branchTipsAt(
    owner: string,
    repo: string,
    branch: string,
    instants: readonly Date[],
    maxPages: number,
    meter?: Meter,
  ): Promise<BranchTip[]> {
    let after: string | undefined;
    let pages = 0;
    const out = instants.map((): BranchTip => ({ oid: null, reached: false, pages: 0 }));
    const open = () => out.some((o) => !o.reached);
    while (pages < maxPages && open()) {
      this.guard();
      try {
        const res = await this.octokit.request('GET /repos/{owner}/{repo}/activity', {
          owner,
          repo,
          ref: `refs/heads/${branch}`,
          direction: 'desc',
          per_page: 100,
          ...(after ? { after } : {}),
          headers: { 'x-github-api-version': '2022-11-28' },
          request: { fetch: this.meteredFetch(meter) },
        });
        pages++;
        const items = res.data as unknown as { after: string; timestamp: string; activity_type: string }[];
        for (const item of items) {
          const t = Date.parse(item.timestamp);
          instants.forEach((instant, i) => {
            const o = out[i]!;
            if (o.reached || t > instant.getTime()) return;
            o.oid = item.activity_type === 'branch_deletion' ? null : item.after;
            o.reached = true;
          });
        }
        const next = /<([^>]+)>;\s*rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
        after = next ? (new URL(next).searchParams.get('after') ?? undefined) : undefined;
        if (!after) break;
      } catch (err) {
        throw this.translate(err, `GET /repos/${owner}/${repo}/activity`);
      }
    }
    for (const o of out) o.pages = pages;
    return out;
  }

  /**
   * The files changed between two commits of a repository (`GET /repos/{o}/{r}/compare/{base}...{head}`): GitHub
   * lists up to 300 files; `truncated` says more changed.
   */
  async compareFiles(
    owner: string,
    repo: string,
    base: string,
    head: string,
    meter?: Meter,
  ): Promise<{ files: CompareFile[]; truncated: boolean }> {
    this.guard();
    try {
      const res = await this.octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
        owner,
        repo,
        basehead: `${base}...${head}`,
        per_page: 1,
        headers: { 'x-github-api-version': '2022-11-28' },
        request: { fetch: this.meteredFetch(meter) },
      });
      const data = res.data as unknown as { files?: CompareFile[] };
      const files = data.files ?? [];
      return { files, truncated: files.length >= COMPARE_FILES_MAX };
    } catch (err) {
      throw this.translate(err, `GET /repos/${owner}/${repo}/compare`);
    }
  }

  /**
   * One page of a user's starred repositories with their starring times, oldest star first, revalidated with
   * `If-None-Match` (a 304 costs no quota). `hasNext` follows the `Link: rel="next"` header.
   */
  async starredPage(
    username: string,
    page: number,
    perPage: number,
    etag: string | null | undefined,
    meter?: Meter,
  ): Promise<StarredPageResult> {
    this.guard();
    try {
      const res = await this.octokit.request('GET /users/{username}/starred', {
        username,
        page,
        per_page: perPage,
        sort: 'created',
        direction: 'asc',
        headers: {
          accept: 'application/vnd.github.star+json',
          'x-github-api-version': '2022-11-28',
          ...(etag ? { 'if-none-match': etag } : {}),
        },
        request: { fetch: this.meteredFetch(meter) },
      });
      const link = String(res.headers.link ?? '');
      return {
        status: 200,
        items: res.data as unknown as { starred_at: string; repo: unknown }[],
        etag: res.headers.etag ?? null,
        hasNext: /rel="next"/.test(link),
      };
    } catch (err) {
      const e = err as HttpishError;
      if (e.status === 304) return { status: 304, etag: e.response?.headers?.etag ?? etag ?? null };
      throw this.translate(err, `GET /users/${username}/starred`);
    }
  }

  /**
   * Seconds until the REST quota is back when the last answer said it is spent (`x-ratelimit-remaining: 0` with a
   * reset still ahead); undefined while requests remain or nothing is known yet.
   */
  coreBudgetSpentFor(now = Date.now()): number | undefined {
    const remaining = this.rate.remaining.core;
    const reset = this.rate.reset.core;
    if (remaining === undefined || remaining > 0 || reset === undefined) return undefined;
    const seconds = Math.ceil(reset - now / 1000);
    return seconds > 0 ? seconds : undefined;
  }

  /** What the last answers said about the remaining quota (REST core and GraphQL). */
  remaining(): { core: number | null; graphql: number | null } {
    return { core: this.rate.remaining.core ?? null, graphql: this.rate.remaining.graphql ?? null };
  }
}

/** Retry-After when given, else the end of the rate-limit window, in whole seconds from now (at least 1). */
function retryAfterOf(headers: Record<string, string | undefined> | undefined): number | undefined {
  const retryAfter = Number(headers?.['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.ceil(retryAfter);
  const reset = Number(headers?.['x-ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  return undefined;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
