/**
 * The GraphQL documents of the collector. Each one batches several organisations or repositories under aliases
 * (`o0`, `o1`, … / `r0`, `r1`, …), so one request serves many of them. Logins and names travel as variables, never
 * spliced into the query text.
 */

/**
 * GitHub prices a GraphQL query by the connections it asks for (first: values), not by what comes back: the first
 * page asks for 30 repositories, each with up to 100 commits, so a query over 5 organisations costs about 2 of the
 * 5,000 points of an hour. Larger organisations get further pages of 100, with commit history only while their
 * repositories were pushed inside the window.
 */
const FIRST_REPOS_PAGE = 30;
const REPOS_PER_PAGE = 100;
export const COMMITS_PER_PAGE = 100;
/**
 * Evidence of each repository pushed inside the window, read in the same query (no extra request): the latest
 * releases, tags and deployments (one page each, newest first), the languages by size, the topics, and the names at
 * the root of the default branch (a tree's entries are a list, not a connection, so they add nothing to the query's
 * price). Each connection adds one request per repository to GitHub's price of the query.
 */
const EVENTS_PER_PAGE = 20;
/** Further pages of events are read 100 at a time: a week collected months later pages past every later event. */
const MORE_EVENTS_PER_PAGE = 100;
const DEPLOYMENTS_PER_PAGE = 50;
const LANGUAGES_PER_REPO = 10;
const TOPICS_PER_REPO = 20;

const FRAGMENTS = `
fragment History on CommitHistoryConnection {
  pageInfo { hasNextPage endCursor }
  nodes { oid committedDate parents { totalCount } author { name email user { login id } } }
}
fragment Evidence on Repository {
  releases(first: ${EVENTS_PER_PAGE}, orderBy: { field: CREATED_AT, direction: DESC }) {
    pageInfo { hasNextPage endCursor }
    nodes { tagName createdAt publishedAt isDraft }
  }
  tags: refs(refPrefix: "refs/tags/", first: ${EVENTS_PER_PAGE}, orderBy: { field: TAG_COMMIT_DATE, direction: DESC }) {
    pageInfo { hasNextPage endCursor }
    nodes { ...TagFields }
  }
  deployments(first: ${DEPLOYMENTS_PER_PAGE}, orderBy: { field: CREATED_AT, direction: DESC }) {
    pageInfo { hasNextPage endCursor }
    nodes { createdAt environment }
  }
  languages(first: ${LANGUAGES_PER_REPO}, orderBy: { field: SIZE, direction: DESC }) {
    edges { size node { name } }
  }
  repositoryTopics(first: ${TOPICS_PER_REPO}) { nodes { topic { name } } }
  root: object(expression: "HEAD:") { ... on Tree { entries { name type } } }
}
fragment TagFields on Ref {
  name
  target {
    __typename
    ... on Commit { committedDate }
    ... on Tag { tagger { date } target { ... on Commit { committedDate } } }
  }
}
fragment RepoPage on RepositoryConnection {
  pageInfo { hasNextPage endCursor }
  nodes {
    name isFork createdAt pushedAt
    primaryLanguage { name }
    defaultBranchRef {
      name
      target {
        ... on Commit {
          history(first: ${COMMITS_PER_PAGE}, since: $since, until: $until) @include(if: $withHistory) { ...History }
        }
      }
    }
    ...Evidence @include(if: $withHistory)
  }
}`;

const REPOSITORIES_ARGS = `privacy: PUBLIC, isFork: false, orderBy: { field: PUSHED_AT, direction: DESC }`;

function declare(prefixes: string[], count: number): string {
  const vars: string[] = [];
  for (let i = 0; i < count; i++) for (const p of prefixes) vars.push(`$${p}${i}: String!`);
  return vars.join(', ');
}

/** Profile, first page of public non-fork repositories (most recently pushed first) and their recent commits. */
export function orgsQuery(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `  o${i}: organization(login: $l${i}) {
    login name description location websiteUrl
    repositories(first: ${FIRST_REPOS_PAGE}, ${REPOSITORIES_ARGS}) { ...RepoPage }
  }`,
  ).join('\n');
  return `query CollectOrgs($since: GitTimestamp!, $until: GitTimestamp!, $withHistory: Boolean!, ${declare(['l'], count)}) {
${fields}
}
${FRAGMENTS}`;
}

/** Further pages of repositories for organisations with more than one page. */
export function moreReposQuery(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `  o${i}: organization(login: $l${i}) {
    repositories(first: ${REPOS_PER_PAGE}, after: $c${i}, ${REPOSITORIES_ARGS}) { ...RepoPage }
  }`,
  ).join('\n');
  return `query MoreRepos($since: GitTimestamp!, $until: GitTimestamp!, $withHistory: Boolean!, ${declare(['l', 'c'], count)}) {
${fields}
}
${FRAGMENTS}`;
}

const HISTORY_FRAGMENT = `fragment History on CommitHistoryConnection {
  pageInfo { hasNextPage endCursor }
  nodes { oid committedDate parents { totalCount } author { name email user { login id } } }
}`;

/**
 * Commit history from a revision (the branch tip at the period's end, or the branch's name), several repositories per
 * query: further pages for busy repositories, and the first page when the tip then differs from the tip now.
 * `$c<i>` may be null (first page).
 */
export function moreHistoryQuery(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `  r${i}: repository(owner: $o${i}, name: $n${i}) {
    object(expression: $x${i}) {
      ... on Commit { history(first: ${COMMITS_PER_PAGE}, since: $since, until: $until, after: $c${i}) { ...History } }
    }
  }`,
  ).join('\n');
  const vars = Array.from(
    { length: count },
    (_, i) => `$o${i}: String!, $n${i}: String!, $x${i}: String!, $c${i}: String`,
  );
  return `query MoreHistory($since: GitTimestamp!, $until: GitTimestamp!, ${vars.join(', ')}) {
${fields}
}
${HISTORY_FRAGMENT}`;
}

/** Further pages of a repository's releases, tags or deployments, newest first, several lists per query. */
export function moreEventsQuery(kinds: readonly ('releases' | 'tags' | 'deployments')[]): string {
  const fields = kinds.map((kind, i) => {
    const list =
      kind === 'releases'
        ? `releases(first: ${MORE_EVENTS_PER_PAGE}, after: $c${i}, orderBy: { field: CREATED_AT, direction: DESC }) {
      pageInfo { hasNextPage endCursor } nodes { tagName createdAt publishedAt isDraft } }`
        : kind === 'tags'
          ? `refs(refPrefix: "refs/tags/", first: ${MORE_EVENTS_PER_PAGE}, after: $c${i}, orderBy: { field: TAG_COMMIT_DATE, direction: DESC }) {
      pageInfo { hasNextPage endCursor } nodes { ...TagFields } }`
          : `deployments(first: ${MORE_EVENTS_PER_PAGE}, after: $c${i}, orderBy: { field: CREATED_AT, direction: DESC }) {
      pageInfo { hasNextPage endCursor } nodes { createdAt environment } }`;
    return `  r${i}: repository(owner: $o${i}, name: $n${i}) { list: ${list} }`;
  });
  const vars = kinds.map((_, i) => `$o${i}: String!, $n${i}: String!, $c${i}: String!`);
  const tagFields = `fragment TagFields on Ref {
  name
  target {
    __typename
    ... on Commit { committedDate }
    ... on Tag { tagger { date } target { ... on Commit { committedDate } } }
  }
}`;
  return `query MoreEvents(${vars.join(', ')}) {
${fields.join('\n')}
}${kinds.includes('tags') ? `\n${tagFields}` : ''}`;
}

/**
 * The authors' look-back: for each (repository, author) pair, the newest commit by that author (their GitHub account
 * when their commits are linked to one, so every address of theirs counts; else their addresses) in the
 * look-back, and the newest in the year before the join window (whether they joined lately), read from the branch tip
 * at the period's end. One alias per pair; a page of one commit each.
 */
export function lookbackQuery(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `  a${i}: repository(owner: $o${i}, name: $n${i}) {
    object(expression: $x${i}) {
      ... on Commit {
        history(first: 1, since: $since, until: $until, author: $e${i}) { nodes { committedDate } }
        beforeJoin: history(first: 1, since: $joinLookSince, until: $joinSince, author: $e${i}) { nodes { committedDate } }
      }
    }
  }`,
  ).join('\n');
  const vars = Array.from(
    { length: count },
    (_, i) => `$o${i}: String!, $n${i}: String!, $x${i}: String!, $e${i}: CommitAuthor!`,
  );
  return `query AuthorLookback($since: GitTimestamp!, $until: GitTimestamp!, $joinLookSince: GitTimestamp!, $joinSince: GitTimestamp!, ${vars.join(', ')}) {
${fields}
}`;
}

/** Public details of candidate organisations (discovery). */
export function orgDetailsQuery(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `  o${i}: organization(login: $l${i}) {
    login name description location websiteUrl
    repositories(privacy: PUBLIC) { totalCount }
    sources: repositories(privacy: PUBLIC, isFork: false) { totalCount }
  }`,
  ).join('\n');
  return `query OrgDetails(${declare(['l'], count)}) {
${fields}
}`;
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface CommitNode {
  oid: string;
  committedDate: string;
  /** Absent in answers read before merge commits were recorded. */
  parents?: { totalCount: number } | null;
  author: { name: string | null; email: string | null; user: { login: string; id?: string } | null } | null;
}

export interface HistoryConnection {
  pageInfo: PageInfo;
  /** GitHub may answer a node it could not resolve as null (a partial result, with an error beside the data). */
  nodes: (CommitNode | null)[];
}

export interface ReleaseNode {
  tagName: string;
  createdAt: string;
  publishedAt: string | null;
  isDraft: boolean;
}

export interface TagNode {
  name: string;
  target:
    | { __typename: 'Commit'; committedDate: string }
    | { __typename: 'Tag'; tagger: { date: string | null } | null; target: { committedDate?: string } | null }
    | { __typename: string }
    | null;
}

export interface DeploymentNode {
  createdAt: string;
  environment: string | null;
}

export interface RepoNode {
  name: string;
  isFork: boolean;
  createdAt: string;
  pushedAt: string | null;
  primaryLanguage: { name: string } | null;
  defaultBranchRef: { name?: string; target: { history?: HistoryConnection } | null } | null;
  /** The evidence fields, present when the page was read with history. */
  releases?: EventPage<ReleaseNode>;
  tags?: EventPage<TagNode> | null;
  deployments?: EventPage<DeploymentNode>;
  languages?: { edges: ({ size: number; node: { name: string } } | null)[] } | null;
  repositoryTopics?: { nodes: ({ topic: { name: string } } | null)[] };
  root?: { entries?: { name: string; type: string }[] | null } | null;
}

export interface EventPage<T> {
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
  nodes: (T | null)[];
}

export interface RepoConnection {
  pageInfo: PageInfo;
  /** Null for a repository GitHub could not resolve (a partial result). */
  nodes: (RepoNode | null)[];
}

export interface OrgNode {
  login: string;
  name: string | null;
  description: string | null;
  location: string | null;
  websiteUrl: string | null;
  /** Null when GitHub could not resolve the connection (a partial result). */
  repositories: RepoConnection | null;
}
