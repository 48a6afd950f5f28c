import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildSchema,
  execute,
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { GitHubClient, type GitHubClientOptions } from '../../src/github/client.js';

/**
 * A local fake of the GitHub API on 127.0.0.1, speaking the shapes the collector relies on:
 * - REST: `GET /orgs/{org}`, `GET /orgs/{org}/repos` (type, sort, direction, per_page, page; `Link` pagination;
 *   weak ETags and 304 for a matching `If-None-Match`), `GET /repos/{o}/{r}/stats/commit_activity` (202 while
 *   "computing", 422 for a repository too large), `GET /search/repositories` (topic and fork qualifiers, `Link`);
 * - GraphQL at `POST /graphql`, executed by graphql-js over a subset of GitHub's schema (organization, repository,
 *   repositories with privacy/isFork/orderBy, default-branch commit history with since/until, cursors, NOT_FOUND
 *   errors with GitHub's `type`; per repository: releases, tags (`refs(refPrefix: "refs/tags/")`), deployments,
 *   languages, topics and the root tree via `object(expression: "HEAD:")`), with every field named as in GitHub's
 *   schema, and each query priced the way GitHub prices it (`counts.points`);
 * - `GET /users/{u}/starred` (sort created, direction, per_page, page; `Link` pagination; ETags and 304): with
 *   `Accept: application/vnd.github.star+json` each item is `{starred_at, repo}`, otherwise the bare repository;
 *   an unknown user is 404;
 * - authentication (401 Bad credentials; anonymous requests when `allowAnonymous`, with their own 60-an-hour
 *   budget as GitHub gives per address), primary rate limits (`x-ratelimit-*` headers, 403 when exhausted; a 304
 *   costs nothing), and injected faults: secondary limits (403/429 with `Retry-After`), 5xx, anything.
 * Every request is counted.
 */

export interface FakeCommit {
  oid?: string;
  committedDate: string;
  login?: string | null;
  email?: string | null;
  name?: string | null;
  /** Parents (default 1); more than one is a merge commit. */
  parents?: number;
  /**
   * When the commit reached the default branch (a push or a merge); default its committed date. A commit dated
   * before it was merged later, and the repository's list of pushes shows it.
   */
  landedAt?: string;
  /** Files the commit changed, for `GET /repos/{o}/{r}/compare/{base}...{head}`. */
  files?: FakeFileChange[];
}

export interface FakeFileChange {
  path: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';
  previousPath?: string;
  additions: number;
  deletions: number;
}

export interface FakeRepo {
  name: string;
  fork?: boolean;
  private?: boolean;
  createdAt: string;
  pushedAt?: string;
  language?: string | null;
  topics?: string[];
  stars?: number;
  commits: FakeCommit[];
  /** Releases (newest or oldest first, any order), tags, deployments, bytes by language, names at the root. */
  releases?: { tagName: string; createdAt: string; publishedAt?: string | null; isDraft?: boolean }[];
  /** An annotated tag has a tagger date; a lightweight tag is dated by its commit. */
  tags?: { name: string; date: string; annotated?: boolean }[];
  deployments?: { createdAt: string; environment?: string | null }[];
  languages?: Record<string, number>;
  /** Entries at the root of the default branch: files, and folders with a trailing slash. */
  rootFiles?: string[];
  /** Statistics: how many 202 answers before the 200, or too large (422). */
  statsComputing?: number;
  statsTooLarge?: boolean;
}

export interface FakeOrg {
  login: string;
  name?: string | null;
  description?: string | null;
  location?: string | null;
  blog?: string | null;
  repos: FakeRepo[];
}

/** A repository a user starred (it need not belong to one of the fake's organisations). */
export interface FakeStar {
  /** `owner/name`. */
  repo: string;
  starredAt: string;
  language?: string | null;
  topics?: string[];
  description?: string | null;
}

export interface FakeUser {
  login: string;
  stars: FakeStar[];
}

export interface FakeGitHubOptions {
  orgs?: FakeOrg[];
  users?: FakeUser[];
  /** Answer requests without a token (default false: 401), each with the anonymous budget. */
  allowAnonymous?: boolean;
  /** REST requests per window for anonymous callers (default 60, as GitHub). */
  anonymousRateLimit?: number;
  /** Organisations made on demand (large benchmarks): login → organisation. */
  resolve?: (login: string) => FakeOrg | undefined;
  token?: string;
  /** REST requests per window before 403 (default 5000). */
  rateLimit?: number;
  /** Length of a rate-limit window in seconds (default 3600). */
  rateWindowSeconds?: number;
  /** Keep every request in `log` (default true; the benchmark turns it off). */
  keepLog?: boolean;
}

export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  kind: 'rest' | 'graphql';
  operation?: string | undefined;
}

export interface Fault {
  /** `body` is the request body (a GraphQL query and its variables). */
  match: (req: { method: string; path: string; kind: 'rest' | 'graphql'; body: string }) => boolean;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many matching requests get this answer (default 1). */
  times?: number;
}

export const SECONDARY_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.';

const SCHEMA = buildSchema(`
  scalar GitTimestamp
  scalar DateTime
  scalar URI
  scalar GitObjectID
  enum RepositoryPrivacy { PUBLIC PRIVATE }
  enum OrderDirection { ASC DESC }
  enum RepositoryOrderField { CREATED_AT UPDATED_AT PUSHED_AT NAME STARGAZERS }
  input RepositoryOrder { field: RepositoryOrderField! direction: OrderDirection! }
  enum ReleaseOrderField { CREATED_AT NAME }
  input ReleaseOrder { field: ReleaseOrderField! direction: OrderDirection! }
  enum RefOrderField { ALPHABETICAL TAG_COMMIT_DATE }
  input RefOrder { field: RefOrderField! direction: OrderDirection! }
  enum DeploymentOrderField { CREATED_AT }
  input DeploymentOrder { field: DeploymentOrderField! direction: OrderDirection! }
  enum LanguageOrderField { SIZE }
  input LanguageOrder { field: LanguageOrderField! direction: OrderDirection! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type RateLimit { limit: Int! cost: Int! remaining: Int! used: Int! resetAt: DateTime! }
  type Query {
    organization(login: String!): Organization
    repository(owner: String!, name: String!): Repository
    rateLimit: RateLimit
  }
  type Organization {
    login: String!
    name: String
    description: String
    location: String
    websiteUrl: URI
    repositories(first: Int, after: String, privacy: RepositoryPrivacy, isFork: Boolean, orderBy: RepositoryOrder): RepositoryConnection!
  }
  type RepositoryConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Repository] }
  type Repository {
    name: String!
    isFork: Boolean!
    isPrivate: Boolean!
    createdAt: DateTime!
    pushedAt: DateTime
    primaryLanguage: Language
    defaultBranchRef: Ref
    releases(first: Int, after: String, orderBy: ReleaseOrder): ReleaseConnection!
    refs(first: Int, after: String, refPrefix: String!, orderBy: RefOrder): RefConnection
    deployments(first: Int, after: String, orderBy: DeploymentOrder): DeploymentConnection!
    languages(first: Int, after: String, orderBy: LanguageOrder): LanguageConnection
    repositoryTopics(first: Int, after: String): RepositoryTopicConnection!
    object(expression: String): GitObject
  }
  type Language { name: String! }
  type Ref { name: String! target: GitObject }
  type RefConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Ref] }
  type Release { tagName: String! createdAt: DateTime! publishedAt: DateTime isDraft: Boolean! }
  type ReleaseConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Release] }
  type Deployment { createdAt: DateTime! environment: String }
  type DeploymentConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Deployment] }
  type LanguageEdge { cursor: String! size: Int! node: Language! }
  type LanguageConnection { totalCount: Int! totalSize: Int! pageInfo: PageInfo! edges: [LanguageEdge] nodes: [Language] }
  type Topic { name: String! }
  type RepositoryTopic { topic: Topic! }
  type RepositoryTopicConnection { totalCount: Int! pageInfo: PageInfo! nodes: [RepositoryTopic] }
  type TreeEntry { name: String! type: String! }
  type Tag implements GitObject { oid: GitObjectID! name: String! tagger: GitActor target: GitObject! }
  interface GitObject { oid: GitObjectID! }
  input CommitAuthor { id: ID emails: [String!] }
  type CommitConnection { totalCount: Int! }
  type Commit implements GitObject {
    oid: GitObjectID!
    committedDate: DateTime!
    author: GitActor
    parents(first: Int): CommitConnection!
    history(first: Int, after: String, since: GitTimestamp, until: GitTimestamp, author: CommitAuthor): CommitHistoryConnection!
  }
  type Tree implements GitObject { oid: GitObjectID! entries: [TreeEntry!] }
  type GitActor { name: String email: String date: GitTimestamp user: User }
  type User { login: String! id: ID! }
  type CommitHistoryConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Commit] }
`);

class NotFound extends Error {
  readonly type = 'NOT_FOUND';
}

function encodeCursor(offset: number): string {
  return Buffer.from(`cursor:${offset}`).toString('base64');
}

function decodeCursor(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const match = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!match) throw new Error(`\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(match[1]);
}

function paginate<T>(items: T[], first: number | null | undefined, after: string | null | undefined) {
  const start = decodeCursor(after);
  const size = Math.min(Math.max(first ?? 100, 1), 100);
  const nodes = items.slice(start, start + size);
  const end = start + nodes.length;
  return {
    totalCount: items.length,
    nodes,
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: nodes.length ? encodeCursor(start) : null,
      endCursor: nodes.length ? encodeCursor(end) : null,
    },
  };
}

function commitOid(org: string, repo: string, commit: FakeCommit, index: number): string {
  return commit.oid ?? createHash('sha1').update(`${org}/${repo}#${index}@${commit.committedDate}`).digest('hex');
}

/**
 * A repository's default branch over time: each commit reached it when it landed (`landedAt`, else its date); each
 * distinct landing instant is one push, whose tip is the newest commit that landed then. Made once per state of the
 * repository (every query and comparison of a collection reads it): commits are only ever appended, so the same
 * list of the same length is the same graph.
 */
function commitGraph(org: FakeOrg, repo: FakeRepo): CommitGraph {
  const known = commitGraphs.get(repo);
  if (known && known.list === repo.commits && known.length === repo.commits.length && known.login === org.login) {
    return known.graph;
  }
  const graph = buildCommitGraph(org, repo);
  commitGraphs.set(repo, { list: repo.commits, length: repo.commits.length, login: org.login, graph });
  return graph;
}

type CommitGraph = ReturnType<typeof buildCommitGraph>;
const commitGraphs = new WeakMap<FakeRepo, { list: FakeCommit[]; length: number; login: string; graph: CommitGraph }>();

function buildCommitGraph(org: FakeOrg, repo: FakeRepo) {
  const commits = repo.commits
    .map((c, i) => ({ c, oid: commitOid(org.login, repo.name, c, i), at: Date.parse(c.committedDate) }))
    .sort((a, b) => (a.c.committedDate < b.c.committedDate ? 1 : a.c.committedDate > b.c.committedDate ? -1 : 0));
  const landed = new Map(commits.map((x) => [x.oid, Date.parse(x.c.landedAt ?? x.c.committedDate)]));
  const pushes = [...new Set(landed.values())].sort((a, b) => b - a);
  // Each push's tip: the newest commit (by commit date) that landed with it, found in one pass.
  const tipOfPush = new Map<number, (typeof commits)[number]>();
  for (const x of commits) {
    const at = landed.get(x.oid)!;
    if (!tipOfPush.has(at)) tipOfPush.set(at, x);
  }
  /** The tip after the last push at or before `instant` (pushes are newest first: a binary search). */
  const tipOf = (instant: number) => {
    let lo = 0;
    let hi = pushes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pushes[mid]! <= instant) hi = mid;
      else lo = mid + 1;
    }
    return lo < pushes.length ? tipOfPush.get(pushes[lo]!) : undefined;
  };
  /** The commits of a history query's range (by its bounds), kept for its further pages. */
  const ranges = new Map<string, typeof commits>();
  return { commits, landed, pushes, tipOf, ranges };
}

function pushedAtOf(repo: FakeRepo): string {
  if (repo.pushedAt) return repo.pushedAt;
  const latest = repo.commits.reduce((max, c) => {
    const at = c.landedAt ?? c.committedDate;
    return at > max ? at : max;
  }, repo.createdAt);
  return latest;
}

export class FakeGitHub {
  url = '';
  readonly log: RequestRecord[] = [];
  readonly counts = {
    total: 0,
    rest: 0,
    graphql: 0,
    notModified: 0,
    /** GitHub's price of the GraphQL queries answered (points of the hourly 5,000), see `graphqlCost`. */
    points: 0,
    byStatus: new Map<number, number>(),
  };
  /** How many times each organisation was read by a `CollectOrgs` GraphQL query (lower-case login). */
  readonly orgReads = new Map<string, number>();
  private readonly orgs = new Map<string, FakeOrg>();
  private readonly users = new Map<string, FakeUser>();
  private faults: (Fault & { left: number })[] = [];
  private readonly limits = new Map<string, { remaining: number; resetAt: number }>();
  private server: Server | undefined;
  /** Delay every answer by this many milliseconds (to stop a run in the middle in tests). */
  delayMs = 0;
  /** Days of pushes the activity list keeps (unset: all). */
  activityRetentionDays: number | undefined;

  constructor(private readonly options: FakeGitHubOptions = {}) {
    for (const org of options.orgs ?? []) this.orgs.set(org.login.toLowerCase(), org);
    for (const user of options.users ?? []) this.users.set(user.login.toLowerCase(), user);
  }

  setUser(user: FakeUser): void {
    this.users.set(user.login.toLowerCase(), user);
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const fake = new FakeGitHub(options);
    await fake.listen();
    return fake;
  }

  get token(): string {
    return this.options.token ?? 'test-token';
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.send(res, { method: req.method ?? 'GET', path: req.url ?? '/', kind: 'rest' }, 500, {
          message: String((err as Error).stack ?? err),
        });
      });
    });
    // Node's fetch keeps a connection only when the server's keep-alive hint is more than two seconds: under that,
    // every request would open a new connection, as no client of GitHub's does.
    this.server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  org(login: string): FakeOrg | undefined {
    const key = login.toLowerCase();
    return this.orgs.get(key) ?? this.options.resolve?.(key);
  }

  setOrg(org: FakeOrg): void {
    this.orgs.set(org.login.toLowerCase(), org);
  }

  removeOrg(login: string): void {
    this.orgs.delete(login.toLowerCase());
  }

  /** Adds a commit (and moves the repository's pushed time), as a push would. */
  pushCommit(login: string, repoName: string, commit: FakeCommit): void {
    const org = this.org(login);
    const repo = org?.repos.find((r) => r.name === repoName);
    if (!org || !repo) throw new Error(`no repository ${login}/${repoName}`);
    repo.commits.push(commit);
    repo.pushedAt = new Date(Math.max(Date.parse(pushedAtOf(repo)), Date.parse(commit.committedDate))).toISOString();
    this.orgs.set(org.login.toLowerCase(), org);
  }

  injectFault(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Sets the remaining REST quota of the current window (the next request beyond it gets 403). */
  setRemaining(
    resource: 'core' | 'graphql' | 'search' | 'anon:core',
    remaining: number,
    resetInSeconds?: number,
  ): void {
    const limit = this.limit(resource);
    limit.remaining = remaining;
    if (resetInSeconds !== undefined) limit.resetAt = Math.ceil(Date.now() / 1000) + resetInSeconds;
  }

  resetCounts(): void {
    this.log.length = 0;
    this.counts.total = this.counts.rest = this.counts.graphql = this.counts.notModified = this.counts.points = 0;
    this.counts.byStatus.clear();
    this.orgReads.clear();
  }

  countWhere(predicate: (r: RequestRecord) => boolean): number {
    return this.log.filter(predicate).length;
  }

  private limitOf(resource: string): number {
    return resource.startsWith('anon:') ? (this.options.anonymousRateLimit ?? 60) : (this.options.rateLimit ?? 5000);
  }

  private limit(resource: string) {
    const now = Math.floor(Date.now() / 1000);
    let state = this.limits.get(resource);
    if (!state || now >= state.resetAt) {
      state = {
        remaining: this.limitOf(resource),
        resetAt: now + (this.options.rateWindowSeconds ?? 3600),
      };
      this.limits.set(resource, state);
    }
    return state;
  }

  private rateHeaders(resource: string): Record<string, string> {
    const state = this.limit(resource);
    const limit = this.limitOf(resource);
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(state.remaining, 0)),
      'x-ratelimit-used': String(limit - Math.max(state.remaining, 0)),
      'x-ratelimit-reset': String(state.resetAt),
      'x-ratelimit-resource': resource.replace(/^anon:/, ''),
    };
  }

  private record(entry: RequestRecord): void {
    this.counts.total++;
    if (entry.kind === 'rest') this.counts.rest++;
    else this.counts.graphql++;
    if (entry.status === 304) this.counts.notModified++;
    this.counts.byStatus.set(entry.status, (this.counts.byStatus.get(entry.status) ?? 0) + 1);
    if (this.options.keepLog !== false) this.log.push(entry);
  }

  private send(
    res: ServerResponse,
    entry: Omit<RequestRecord, 'status'>,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    this.record({ ...entry, status });
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, {
      ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      'x-github-media-type': 'github.v3; format=json',
      ...headers,
    });
    res.end(text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const kind: 'rest' | 'graphql' = url.pathname === '/graphql' ? 'graphql' : 'rest';
    const auth = req.headers.authorization ?? '';
    const anonymous = auth === '' && this.options.allowAnonymous === true;
    const resource =
      (anonymous ? 'anon:' : '') +
      (kind === 'graphql' ? 'graphql' : url.pathname.startsWith('/search/') ? 'search' : 'core');
    const body = method === 'POST' ? await readBody(req) : '';
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const entry = { method, path: url.pathname + url.search, kind };

    const fault = this.faults.find((f) => f.left > 0 && f.match({ ...entry, body }));
    if (fault) {
      fault.left--;
      this.send(res, entry, fault.status, fault.body ?? { message: 'Server Error' }, {
        ...this.rateHeaders(resource),
        ...fault.headers,
      });
      return;
    }

    const authorised = /^(token|bearer) /i.test(auth) && auth.replace(/^(token|bearer) /i, '') === this.token;
    if (!authorised && !anonymous) {
      this.send(res, entry, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
      return;
    }

    const limit = this.limit(resource);
    if (limit.remaining <= 0) {
      this.send(
        res,
        entry,
        403,
        { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest' },
        this.rateHeaders(resource),
      );
      return;
    }

    if (kind === 'graphql') {
      await this.handleGraphql(res, entry, body, limit);
      return;
    }
    const answer = this.route(method, url, req.headers['if-none-match'], String(req.headers.accept ?? ''));
    if (answer.status !== 304) limit.remaining--;
    this.send(res, entry, answer.status, answer.body, { ...this.rateHeaders(resource), ...answer.headers });
  }

  private route(
    method: string,
    url: URL,
    ifNoneMatch: string | undefined,
    accept: string,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    const notFound = { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    if (method !== 'GET') return notFound;
    const starred = /^\/users\/([^/]+)\/starred$/.exec(url.pathname);
    if (starred) {
      const user = this.users.get(decodeURIComponent(starred[1]!).toLowerCase());
      if (!user) return notFound;
      return this.starred(user, url, ifNoneMatch, /star\+json/.test(accept));
    }
    let m = /^\/orgs\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const org = this.org(decodeURIComponent(m[1]!));
      if (!org) return notFound;
      return this.conditional(
        {
          login: org.login,
          type: 'Organization',
          name: org.name ?? null,
          description: org.description ?? null,
          location: org.location ?? null,
          blog: org.blog ?? '',
          public_repos: org.repos.filter((r) => !r.private).length,
        },
        ifNoneMatch,
      );
    }
    m = /^\/orgs\/([^/]+)\/repos$/.exec(url.pathname);
    if (m) {
      const org = this.org(decodeURIComponent(m[1]!));
      if (!org) return notFound;
      return this.orgRepos(org, url, ifNoneMatch);
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/stats\/commit_activity$/.exec(url.pathname);
    if (m) {
      const repo = this.org(decodeURIComponent(m[1]!))?.repos.find((r) => r.name === decodeURIComponent(m![2]!));
      if (!repo) return notFound;
      return this.commitActivity(repo);
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(url.pathname);
    if (m) {
      const org = this.org(decodeURIComponent(m[1]!));
      const repo = org?.repos.find((r) => r.name === decodeURIComponent(m![2]!));
      if (!org || !repo) return notFound;
      return this.compare(org, repo, m[3]!, m[4]!);
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/activity$/.exec(url.pathname);
    if (m) {
      const org = this.org(decodeURIComponent(m[1]!));
      const repo = org?.repos.find((r) => r.name === decodeURIComponent(m![2]!));
      if (!org || !repo) return notFound;
      return this.activity(org, repo, url);
    }
    if (url.pathname === '/search/repositories') return this.search(url);
    return notFound;
  }

  private conditional(body: unknown, ifNoneMatch: string | undefined, headers: Record<string, string> = {}) {
    const etag = `W/"${createHash('sha1').update(JSON.stringify(body)).digest('hex')}"`;
    if (ifNoneMatch && ifNoneMatch === etag) return { status: 304, body: undefined, headers: { etag, ...headers } };
    return { status: 200, body, headers: { etag, ...headers } };
  }

  private linkHeader(url: URL, page: number, perPage: number, total: number): Record<string, string> {
    const last = Math.max(1, Math.ceil(total / perPage));
    const link = (p: number, rel: string) => {
      const u = new URL(url.toString());
      u.searchParams.set('page', String(p));
      u.searchParams.set('per_page', String(perPage));
      return `<${u.toString()}>; rel="${rel}"`;
    };
    const parts: string[] = [];
    if (page > 1) parts.push(link(page - 1, 'prev'));
    if (page < last) parts.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) parts.push(link(1, 'first'));
    return parts.length ? { link: parts.join(', ') } : {};
  }

  private orgRepos(org: FakeOrg, url: URL, ifNoneMatch: string | undefined) {
    const type = url.searchParams.get('type') ?? 'all';
    const sort = url.searchParams.get('sort') ?? 'created';
    const direction = url.searchParams.get('direction') ?? (sort === 'full_name' ? 'asc' : 'desc');
    const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page') ?? 30), 1), 100);
    const page = Math.max(Number(url.searchParams.get('page') ?? 1), 1);
    let repos = org.repos.filter((r) => !r.private);
    if (type === 'sources') repos = repos.filter((r) => !r.fork);
    if (type === 'forks') repos = repos.filter((r) => r.fork);
    const key = (r: FakeRepo) =>
      sort === 'pushed' ? pushedAtOf(r) : sort === 'full_name' ? r.name.toLowerCase() : r.createdAt;
    repos = [...repos].sort(
      (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (direction === 'asc' ? 1 : -1),
    );
    const items = repos.slice((page - 1) * perPage, page * perPage).map((r) => this.restRepo(org, r));
    return this.conditional(items, ifNoneMatch, this.linkHeader(url, page, perPage, repos.length));
  }

  /**
   * `GET /repos/{o}/{r}/activity`: the default branch's pushes (newest first unless `direction=asc`), each with the
   * tip before and after it; cursor pagination with `after` and a `Link: rel="next"` header, as GitHub pages it.
   * `activityRetentionDays` drops older entries, as a list that does not reach back.
   */
  private activity(org: FakeOrg, repo: FakeRepo, url: URL) {
    const ref = url.searchParams.get('ref');
    if (ref && ref !== 'refs/heads/main' && ref !== 'main') return { status: 200, body: [] };
    const { pushes, tipOf } = commitGraph(org, repo);
    const cutoff =
      this.activityRetentionDays === undefined ? -Infinity : Date.now() - this.activityRetentionDays * 86_400_000;
    const zero = '0'.repeat(40);
    // Pushes are newest first, so those kept are the first `kept`; only the page asked for is built.
    const kept = pushes.filter((p) => p >= cutoff).length;
    const item = (i: number) => {
      const p = pushes[i]!;
      return {
        id: p,
        node_id: `RA_${p}`,
        before: pushes[i + 1] === undefined ? zero : tipOf(pushes[i + 1]!)!.oid,
        after: tipOf(p)!.oid,
        ref: 'refs/heads/main',
        timestamp: new Date(p).toISOString(),
        activity_type: 'push',
        actor: null,
      };
    };
    const ascending = url.searchParams.get('direction') === 'asc';
    const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page') ?? 30), 1), 100);
    const start = decodeCursor(url.searchParams.get('after'));
    const page: ReturnType<typeof item>[] = [];
    for (let j = start; j < Math.min(start + perPage, kept); j++) page.push(item(ascending ? kept - 1 - j : j));
    const headers: Record<string, string> = {};
    if (start + perPage < kept) {
      const next = new URL(url.toString());
      next.searchParams.set('after', encodeCursor(start + perPage));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    return { status: 200, body: page, headers };
  }

  /**
   * A comparison of two tips of the default branch: the files changed by the commits that landed after the base and
   * up to the head, folded per path (added then removed: gone; renamed: the first name it had), at most 300 listed.
   */
  private compare(org: FakeOrg, repo: FakeRepo, base: string, head: string) {
    const { commits, landed } = commitGraph(org, repo);
    const b = landed.get(base);
    const h = landed.get(head);
    if (b === undefined || h === undefined) return { status: 404, body: { message: 'Not Found' } };
    const range = commits.filter((x) => landed.get(x.oid)! > b && landed.get(x.oid)! <= h).reverse();
    const byPath = new Map<string, FakeFileChange & { first: FakeFileChange['status'] }>();
    for (const { c } of range) {
      for (const f of c.files ?? []) {
        const from = f.previousPath ? byPath.get(f.previousPath) : undefined;
        if (from) byPath.delete(f.previousPath!);
        const known = from ?? byPath.get(f.path);
        if (!known) {
          byPath.set(f.path, { ...f, first: f.status });
          continue;
        }
        known.additions += f.additions;
        known.deletions += f.deletions;
        const status =
          known.first === 'added'
            ? 'added'
            : f.status === 'removed'
              ? 'removed'
              : known.first === 'renamed' || f.status === 'renamed'
                ? 'renamed'
                : 'modified';
        if (known.first === 'added' && f.status === 'removed') byPath.delete(f.path);
        else byPath.set(f.path, { ...known, path: f.path, status, previousPath: known.previousPath ?? f.previousPath });
      }
    }
    const files = [...byPath.values()].slice(0, 300).map((f) => ({
      filename: f.path,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      changes: f.additions + f.deletions,
      ...(f.previousPath ? { previous_filename: f.previousPath } : {}),
    }));
    return {
      status: 200,
      body: { status: 'ahead', ahead_by: range.length, behind_by: 0, total_commits: range.length, commits: [], files },
    };
  }

  private starred(user: FakeUser, url: URL, ifNoneMatch: string | undefined, withTimes: boolean) {
    const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page') ?? 30), 1), 100);
    const page = Math.max(Number(url.searchParams.get('page') ?? 1), 1);
    const direction = url.searchParams.get('direction') ?? 'desc';
    const stars = [...user.stars].sort(
      (a, b) => (a.starredAt < b.starredAt ? -1 : a.starredAt > b.starredAt ? 1 : 0) * (direction === 'asc' ? 1 : -1),
    );
    const items = stars.slice((page - 1) * perPage, page * perPage).map((star) => {
      const [owner, name] = star.repo.split('/') as [string, string];
      const repo = {
        name,
        full_name: star.repo,
        owner: { login: owner, type: 'Organization' },
        html_url: `https://github.com/${star.repo}`,
        description: star.description ?? null,
        language: star.language ?? null,
        topics: star.topics ?? [],
      };
      return withTimes ? { starred_at: star.starredAt, repo } : repo;
    });
    return this.conditional(items, ifNoneMatch, this.linkHeader(url, page, perPage, stars.length));
  }

  private restRepo(org: FakeOrg, r: FakeRepo) {
    return {
      name: r.name,
      full_name: `${org.login}/${r.name}`,
      private: Boolean(r.private),
      fork: Boolean(r.fork),
      owner: { login: org.login, type: 'Organization' },
      created_at: r.createdAt,
      pushed_at: pushedAtOf(r),
      language: r.language ?? null,
      topics: r.topics ?? [],
      stargazers_count: r.stars ?? 0,
    };
  }

  private commitActivity(repo: FakeRepo): { status: number; body: unknown } {
    if (repo.statsTooLarge) {
      return { status: 422, body: { message: 'Repository contains more than 10,000 commits', status: '422' } };
    }
    if ((repo.statsComputing ?? 0) > 0) {
      repo.statsComputing!--;
      return { status: 202, body: {} };
    }
    if (repo.commits.length === 0) return { status: 204, body: undefined };
    const DAY = 86_400_000;
    const sundayOf = (ms: number) => {
      const d = new Date(ms);
      const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return midnight - d.getUTCDay() * DAY;
    };
    const times = repo.commits.map((c) => Date.parse(c.committedDate));
    const first = sundayOf(Math.min(...times));
    const last = sundayOf(Math.max(...times));
    const weeks: { days: number[]; total: number; week: number }[] = [];
    for (let w = first; w <= last; w += 7 * DAY) weeks.push({ days: [0, 0, 0, 0, 0, 0, 0], total: 0, week: w / 1000 });
    for (const t of times) {
      const week = weeks[Math.floor((sundayOf(t) - first) / (7 * DAY))]!;
      week.days[Math.floor((t - sundayOf(t)) / DAY)]!++;
      week.total++;
    }
    return { status: 200, body: weeks };
  }

  private search(url: URL) {
    const q = url.searchParams.get('q') ?? '';
    const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page') ?? 30), 1), 100);
    const page = Math.max(Number(url.searchParams.get('page') ?? 1), 1);
    const topics = [...q.matchAll(/topic:([^\s]+)/g)].map((m) => m[1]!.toLowerCase());
    const noForks = /fork:false/.test(q);
    const items: unknown[] = [];
    for (const org of this.orgs.values()) {
      for (const repo of org.repos) {
        if (repo.private || (noForks && repo.fork)) continue;
        if (topics.length && !topics.every((t) => (repo.topics ?? []).includes(t))) continue;
        items.push(this.restRepo(org, repo));
      }
    }
    items.sort((a, b) => ((a as { pushed_at: string }).pushed_at < (b as { pushed_at: string }).pushed_at ? 1 : -1));
    return {
      status: 200,
      body: {
        total_count: items.length,
        incomplete_results: false,
        items: items.slice((page - 1) * perPage, page * perPage),
      },
      headers: this.linkHeader(url, page, perPage, items.length),
    };
  }

  private async handleGraphql(
    res: ServerResponse,
    entry: Omit<RequestRecord, 'status'>,
    text: string,
    limit: { remaining: number },
  ): Promise<void> {
    let request: { query?: string; variables?: Record<string, unknown>; operationName?: string };
    try {
      request = JSON.parse(text);
    } catch {
      this.send(res, entry, 400, { message: 'Problems parsing JSON' });
      return;
    }
    limit.remaining--;
    const operation = /^\s*query\s+(\w+)/.exec(request.query ?? '')?.[1];
    try {
      this.counts.points += graphqlCost(request.query ?? '', request.variables ?? {});
    } catch {
      // An unparsable query is answered with graphql-js's own errors below.
    }
    const checked = checkedQuery(request.query ?? '');
    const result =
      'errors' in checked
        ? { errors: checked.errors, data: undefined }
        : await execute({
            schema: SCHEMA,
            document: checked.document,
            variableValues: request.variables ?? {},
            rootValue: this.graphqlRoot(operation),
          });
    const errors: (GraphQLFormattedError & { type?: string })[] | undefined = result.errors?.map((e) => {
      const type = e.originalError instanceof NotFound ? e.originalError.type : undefined;
      return { ...e.toJSON(), ...(type ? { type } : {}) };
    });
    this.send(
      res,
      { ...entry, operation },
      200,
      { data: result.data ?? null, ...(errors ? { errors } : {}) },
      this.rateHeaders('graphql'),
    );
  }

  private graphqlRoot(operation: string | undefined) {
    const repository = (org: FakeOrg, repo: FakeRepo) => {
      const { commits, landed, tipOf, ranges } = commitGraph(org, repo);
      const toNode = ({ c, oid }: { c: FakeCommit; oid: string }) => ({
        oid,
        committedDate: c.committedDate,
        author: {
          name: c.name ?? null,
          email: c.email ?? null,
          user: c.login ? { login: c.login, id: fakeUserId(c.login) } : null,
        },
        parents: { totalCount: c.parents ?? 1 },
      });
      const newestFirst = <T>(items: T[], key: (t: T) => string, direction = 'DESC') =>
        [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (direction === 'DESC' ? -1 : 1));
      const headOid = commits[0]?.oid ?? createHash('sha1').update(`${org.login}/${repo.name}`).digest('hex');
      /** A commit as a tip: its history is what the branch held once it landed. */
      const commitAt = (tip: { c: FakeCommit; oid: string }, upTo: number) => ({
        __typename: 'Commit',
        ...toNode(tip),
        history: (args: {
          first?: number;
          after?: string;
          since?: string;
          until?: string;
          author?: { emails?: string[]; id?: string };
        }) => {
          const since = args.since ? Date.parse(args.since) : -Infinity;
          const until = args.until ? Date.parse(args.until) : Infinity;
          const emails = args.author?.emails?.map((e) => e.toLowerCase());
          // GitHub's author filter by account: every commit linked to that user, whatever its address.
          const user = args.author?.id;
          // Every page of one history reads the same range: it is filtered once per state of the repository.
          const key = JSON.stringify([upTo, since, until, emails ?? null, user ?? null]);
          let inRange = ranges.get(key);
          if (!inRange) {
            inRange = commits.filter((x) => {
              const t = x.at;
              if (landed.get(x.oid)! > upTo || t < since || t > until) return false;
              if (user) return x.c.login !== undefined && x.c.login !== null && fakeUserId(x.c.login) === user;
              return !emails || emails.includes((x.c.email ?? '').toLowerCase());
            });
            if (ranges.size >= 200) ranges.clear();
            ranges.set(key, inRange);
          }
          const page = paginate(inRange, args.first, args.after);
          return { ...page, nodes: page.nodes.map((x) => ({ __typename: 'Commit', ...toNode(x) })) };
        },
      });
      const current = commits.length ? commitAt(tipOf(Infinity)!, Infinity) : null;
      return {
        name: repo.name,
        isFork: Boolean(repo.fork),
        isPrivate: Boolean(repo.private),
        createdAt: repo.createdAt,
        pushedAt: pushedAtOf(repo),
        primaryLanguage: repo.language ? { name: repo.language } : null,
        releases: (args: { first?: number; after?: string; orderBy?: { field: string; direction: string } }) =>
          paginate(
            newestFirst(
              (repo.releases ?? []).map((r) => ({
                tagName: r.tagName,
                createdAt: r.createdAt,
                publishedAt: r.publishedAt === undefined ? r.createdAt : r.publishedAt,
                isDraft: Boolean(r.isDraft),
              })),
              (r) => (args.orderBy?.field === 'NAME' ? r.tagName : r.createdAt),
              args.orderBy?.direction ?? 'DESC',
            ),
            args.first,
            args.after,
          ),
        refs: (args: {
          first?: number;
          after?: string;
          refPrefix: string;
          orderBy?: { field: string; direction: string };
        }) => {
          if (args.refPrefix !== 'refs/tags/') return paginate([], args.first, args.after);
          const tags = newestFirst(
            repo.tags ?? [],
            (t) => (args.orderBy?.field === 'TAG_COMMIT_DATE' ? t.date : t.name),
            args.orderBy?.direction ?? 'ASC',
          ).map((t) => {
            const oid = createHash('sha1').update(`${repo.name}@${t.name}`).digest('hex');
            const commit = { __typename: 'Commit', oid, committedDate: t.date, author: null };
            return {
              name: t.name,
              target: t.annotated
                ? {
                    __typename: 'Tag',
                    oid,
                    name: t.name,
                    tagger: { name: 'Tagger', email: null, date: t.date, user: null },
                    target: commit,
                  }
                : commit,
            };
          });
          return paginate(tags, args.first, args.after);
        },
        deployments: (args: { first?: number; after?: string; orderBy?: { direction: string } }) =>
          paginate(
            newestFirst(
              (repo.deployments ?? []).map((d) => ({
                createdAt: d.createdAt,
                environment: d.environment ?? 'production',
              })),
              (d) => d.createdAt,
              args.orderBy?.direction ?? 'ASC',
            ),
            args.first,
            args.after,
          ),
        languages: (args: { first?: number; after?: string }) => {
          const entries = Object.entries(repo.languages ?? (repo.language ? { [repo.language]: 1000 } : {})).sort(
            (a, b) => b[1] - a[1],
          );
          const page = paginate(entries, args.first, args.after);
          return {
            ...page,
            totalSize: entries.reduce((n, [, size]) => n + size, 0),
            edges: page.nodes.map(([name, size], i) => ({ cursor: encodeCursor(i), size, node: { name } })),
            nodes: page.nodes.map(([name]) => ({ name })),
          };
        },
        repositoryTopics: (args: { first?: number; after?: string }) => {
          const page = paginate(repo.topics ?? [], args.first, args.after);
          return { ...page, nodes: page.nodes.map((name) => ({ topic: { name } })) };
        },
        object: ({ expression }: { expression?: string }) => {
          if (commits.length === 0) return null;
          if (expression === 'HEAD:') {
            return {
              __typename: 'Tree',
              oid: headOid,
              entries: (repo.rootFiles ?? []).map((name) =>
                name.endsWith('/') ? { name: name.slice(0, -1), type: 'tree' } : { name, type: 'blob' },
              ),
            };
          }
          if (expression === 'HEAD' || expression === 'main') return current;
          const tip = commits.find((x) => x.oid === expression);
          return tip ? commitAt(tip, landed.get(tip.oid)!) : null;
        },
        defaultBranchRef: current ? { name: 'main', target: current } : null,
      };
    };
    return {
      organization: ({ login }: { login: string }) => {
        const org = this.org(login);
        if (!org) throw new NotFound(`Could not resolve to an Organization with the login of '${login}'.`);
        if (operation === 'CollectOrgs')
          this.orgReads.set(login.toLowerCase(), (this.orgReads.get(login.toLowerCase()) ?? 0) + 1);
        return {
          login: org.login,
          name: org.name ?? null,
          description: org.description ?? null,
          location: org.location ?? null,
          websiteUrl: org.blog || null,
          repositories: (args: {
            first?: number;
            after?: string;
            privacy?: string;
            isFork?: boolean;
            orderBy?: { field: string; direction: string };
          }) => {
            let repos = org.repos;
            if (args.privacy === 'PUBLIC') repos = repos.filter((r) => !r.private);
            if (args.privacy === 'PRIVATE') repos = repos.filter((r) => r.private);
            if (args.isFork !== undefined && args.isFork !== null)
              repos = repos.filter((r) => Boolean(r.fork) === args.isFork);
            const field = args.orderBy?.field ?? 'CREATED_AT';
            const key = (r: FakeRepo) =>
              field === 'PUSHED_AT' ? pushedAtOf(r) : field === 'NAME' ? r.name.toLowerCase() : r.createdAt;
            const sign = (args.orderBy?.direction ?? 'ASC') === 'DESC' ? -1 : 1;
            repos = [...repos].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * sign);
            const page = paginate(repos, args.first, args.after);
            return { ...page, nodes: page.nodes.map((r) => repository(org, r)) };
          },
        };
      },
      repository: ({ owner, name }: { owner: string; name: string }) => {
        const org = this.org(owner);
        const repo = org?.repos.find((r) => r.name === name);
        if (!org || !repo) throw new NotFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
        return repository(org, repo);
      },
      rateLimit: () => ({ limit: 5000, cost: 1, remaining: 5000, used: 0, resetAt: new Date().toISOString() }),
    };
  }
}

/**
 * GitHub's documented price of a GraphQL query: every connection (a field with `first`) costs one request per item its
 * enclosing connections can return (the product of their `first` values), the requests are summed, divided by 100 and
 * rounded, and a query costs at least 1 point. Fields left out by `@include(if: false)` / `@skip(if: true)` cost
 * nothing.
 */
/**
 * A query's text parsed and validated against the schema, or graphql-js's errors for it (what `graphql()` would
 * answer), kept per text: a collection sends the same few queries with other variables hundreds of times.
 */
const checkedQueries = new Map<string, { document: DocumentNode } | { errors: readonly GraphQLError[] }>();

function checkedQuery(query: string): { document: DocumentNode } | { errors: readonly GraphQLError[] } {
  let checked = checkedQueries.get(query);
  if (!checked) {
    try {
      const document = parse(query);
      const errors = validate(SCHEMA, document);
      checked = errors.length ? { errors } : { document };
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      checked = { errors: [err] };
    }
    if (checkedQueries.size >= 500) checkedQueries.clear();
    checkedQueries.set(query, checked);
  }
  return checked;
}

/**
 * The pipeline's GitHub client pointed at a fake: its token and address, four requests at once, no pause between
 * queries and a 5 ms retry backoff. `options` changes any of these (another token, a wait bound, `onWait`).
 */
export function fakeClient(
  fake: Pick<FakeGitHub, 'token' | 'url'>,
  options: Partial<GitHubClientOptions> = {},
): GitHubClient {
  return new GitHubClient({
    token: fake.token,
    apiUrl: fake.url,
    concurrency: 4,
    queryIntervalMs: 0,
    retryBaseMs: 5,
    ...options,
  });
}

export function graphqlCost(query: string, variables: Record<string, unknown>): number {
  const checked = checkedQuery(query);
  const document = 'document' in checked ? checked.document : parse(query);
  const fragments = new Map<string, SelectionSetNode>();
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def.selectionSet);
  }
  const value = (node: ValueNode | undefined): unknown => {
    if (!node) return undefined;
    if (node.kind === Kind.VARIABLE) return variables[node.name.value];
    if (node.kind === Kind.INT) return Number(node.value);
    if (node.kind === Kind.BOOLEAN) return node.value;
    return undefined;
  };
  const included = (
    directives: readonly {
      name: { value: string };
      arguments?: readonly { name: { value: string }; value: ValueNode }[];
    }[] = [],
  ) =>
    directives.every((d) => {
      const cond = value(d.arguments?.find((a) => a.name.value === 'if')?.value);
      return d.name.value === 'include' ? cond !== false : d.name.value === 'skip' ? cond !== true : true;
    });
  let requests = 0;
  const walk = (set: SelectionSetNode | undefined, multiplier: number): void => {
    for (const sel of set?.selections ?? []) {
      if (!included(sel.directives)) continue;
      if (sel.kind === Kind.FRAGMENT_SPREAD) walk(fragments.get(sel.name.value), multiplier);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet, multiplier);
      else {
        const first = value(sel.arguments?.find((a) => a.name.value === 'first')?.value);
        if (typeof first === 'number') {
          requests += multiplier;
          walk(sel.selectionSet, multiplier * first);
        } else walk(sel.selectionSet, multiplier);
      }
    }
  };
  for (const def of document.definitions) if (def.kind === Kind.OPERATION_DEFINITION) walk(def.selectionSet, 1);
  return Math.max(1, Math.round(requests / 100));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The node id the fake gives a GitHub account: stable per login, as GitHub's are. */
export function fakeUserId(login: string): string {
  return `U_${Buffer.from(login.toLowerCase()).toString('base64url')}`;
}
