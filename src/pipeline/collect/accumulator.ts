import type {
  AuthorLookback,
  RawOrgActivity,
  RepoRecord,
  WatchlistEntry,
  WindowChanges,
} from '../../domain/records.js';
import { newMeter, type BranchTip, type GraphqlErrorItem } from '../../github/client.js';
import { partialNote, present } from './answers.js';
import { authorKey } from './authors.js';
import { missingEvidence } from './evidence.js';
import type { CommitNode, HistoryConnection, OrgNode, RepoConnection, RepoNode } from './queries.js';
import type { CollectWindow } from './window.js';

/** Everything learnt about one organisation while its pages come in. */
export class OrgAccumulator {
  readonly login: string;
  readonly meter = newMeter();
  profile: RawOrgActivity['profile'];
  readonly repos: RepoRecord[] = [];
  readonly commits = new Map<string, CommitNode[]>();
  readonly historyPages = new Map<string, number>();
  readonly historyCursor = new Map<string, string>();
  readonly overflow = new Set<string>();
  readonly notes: string[] = [];
  /** Repositories read with history: their node (evidence lists grow as further pages come in). */
  readonly evidenceNodes = new Map<string, RepoNode>();
  readonly eventPages = new Map<string, number>();
  readonly branches = new Map<string, string>();
  /** Repositories pushed after the window's end, whose tip at the end is still to be read. */
  readonly tipPending = new Set<string>();
  readonly tips = new Map<string, { oid: string; source: 'activity' | 'history' }>();
  /** Tips at the period's three window bounds, for repositories whose list of pushes was read (see windowBounds). */
  readonly boundTips = new Map<string, BranchTip[]>();
  /** The expression history pages are read from: the tip at the window's end, or the branch's name. */
  readonly historyFrom = new Map<string, string>();
  /** Addresses of each author key, for the look-back (kept in memory only, never stored). */
  readonly emails = new Map<string, Set<string>>();
  /** The GitHub account (node id) of each author key whose commits are linked to one: the look-back asks by it. */
  readonly userIds = new Map<string, string>();
  /** Last push of each repository, to know which ones the look-back must read. */
  readonly pushedAt = new Map<string, string>();
  pushedAfterWindow = false;
  lookback: AuthorLookback | undefined;
  readonly changes = new Map<string, WindowChanges[]>();
  nextRepoCursor: string | null = null;
  nextRepoWithHistory = false;
  failure: string | undefined;

  constructor(
    readonly entry: WatchlistEntry,
    org: OrgNode,
    readonly probeEtag: string | null,
    private readonly sinceIso: string,
    private readonly maxCommitPages: number,
    private readonly window: CollectWindow,
  ) {
    this.login = entry.login.toLowerCase();
    this.profile = {
      login: org.login,
      name: org.name,
      description: org.description,
      location: org.location,
      blog: org.websiteUrl,
    };
  }

  /** Records the errors GitHub answered beside this organisation's data: the organisation becomes partial. */
  notePartial(errors: GraphqlErrorItem[], alias: string): void {
    const note = partialNote(errors, alias);
    if (note) this.notes.push(note);
  }

  addRepoPage(connection: RepoConnection, withHistory: boolean): void {
    let missingRepos = 0;
    let missingEvents = 0;
    for (const node of connection.nodes) {
      if (!node) {
        missingRepos++;
        continue;
      }
      if (withHistory) missingEvents += missingEvidence(node);
      this.repos.push({
        name: node.name,
        fork: node.isFork,
        createdAt: node.createdAt,
        language: node.primaryLanguage?.name ?? null,
      });
      if (node.pushedAt) this.pushedAt.set(node.name, node.pushedAt);
      if (node.pushedAt && Date.parse(node.pushedAt) > this.window.until.getTime()) this.pushedAfterWindow = true;
      if (!withHistory) continue;
      this.evidenceNodes.set(node.name, node);
      const branch = node.defaultBranchRef?.name;
      if (branch) this.branches.set(node.name, branch);
      const history = node.defaultBranchRef?.target?.history;
      if (branch && node.pushedAt && Date.parse(node.pushedAt) > this.window.until.getTime()) {
        // Pushed since the window's end: its history is read from the tip it had then, once that is known.
        this.tipPending.add(node.name);
      } else if (history) {
        if (branch) this.historyFrom.set(node.name, branch);
        this.addHistory(node.name, history);
      }
    }
    if (missingRepos > 0) {
      this.notes.push(
        `${missingRepos} ${missingRepos === 1 ? 'repository was' : 'repositories were'} missing from GitHub's answer (null nodes) and not counted`,
      );
    }
    if (missingEvents > 0) {
      this.notes.push(
        `${missingEvents} releases, tags, deployments, languages or topics were missing from GitHub's answer (null nodes)`,
      );
    }
    const last = present(connection.nodes).at(-1);
    this.nextRepoCursor = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    // Repositories come most recently pushed first: once one was last pushed before the window, none of the
    // following ones can hold a commit inside it, so their pages are read without history.
    this.nextRepoWithHistory = Boolean(last?.pushedAt && last.pushedAt >= this.sinceIso);
  }

  addHistory(repo: string, history: HistoryConnection): void {
    const list = this.commits.get(repo) ?? [];
    const nodes = present(history.nodes);
    for (const n of nodes) {
      const email = n.author?.email?.trim();
      if (!email) continue;
      const key = authorKey(n.author).toLowerCase();
      if (n.author?.user?.id) this.userIds.set(key, n.author.user.id);
      const set = this.emails.get(key) ?? new Set<string>();
      set.add(email);
      this.emails.set(key, set);
    }
    list.push(...nodes);
    if (nodes.length < history.nodes.length) {
      this.notes.push(
        `${repo}: ${history.nodes.length - nodes.length} commits were missing from GitHub's answer (null nodes) and not counted`,
      );
    }
    this.commits.set(repo, list);
    const pages = (this.historyPages.get(repo) ?? 0) + 1;
    this.historyPages.set(repo, pages);
    this.historyCursor.delete(repo);
    if (!history.pageInfo.hasNextPage || !history.pageInfo.endCursor) return;
    if (pages < this.maxCommitPages) this.historyCursor.set(repo, history.pageInfo.endCursor);
    else this.overflow.add(repo);
  }

  fail(message: string): void {
    this.failure ??= message;
    this.nextRepoCursor = null;
    this.historyCursor.clear();
  }
}
