import { INFRA_ROOT_FILES, MANIFEST_ECOSYSTEMS } from '../../domain/rules.js';
import type { RepoRecord } from '../../domain/records.js';
import { dayOf, present } from './answers.js';
import type { RepoNode, TagNode } from './queries.js';
import { eventsStartDay, type CollectWindow } from './window.js';

const MARKER_FILES = new Set([...Object.keys(MANIFEST_ECOSYSTEMS), ...INFRA_ROOT_FILES]);

/** When a tag was made: its commit's date, or its annotation's. */
export function tagDate(tag: TagNode): string | undefined {
  const target = tag.target;
  if (!target) return undefined;
  if ('committedDate' in target) return target.committedDate;
  if ('tagger' in target) return target.tagger?.date ?? target.target?.committedDate ?? undefined;
  return undefined;
}

/** How many evidence nodes of a repository GitHub answered as null. */
export function missingEvidence(node: RepoNode): number {
  const nulls = (list: readonly unknown[] | null | undefined) => (list ?? []).filter((x) => x === null).length;
  return (
    nulls(node.releases?.nodes) +
    nulls(node.tags?.nodes) +
    nulls(node.deployments?.nodes) +
    nulls(node.languages?.edges) +
    nulls(node.repositoryTopics?.nodes)
  );
}

/**
 * The evidence of one repository read with history: events from the deploy baseline's start to the period's end (UTC
 * days; `eventsSince`), languages by size, topics, and the root entries that are dependency manifests or
 * infrastructure files. When a list of events filled its page and its oldest event is still inside that span,
 * `eventsFrom` says from which day the lists are whole; when every list was read to its end and the repository's
 * first event falls inside the span, `firstEventDay` says when it began releasing.
 */
export function repoEvidence(node: RepoNode, window: CollectWindow): Partial<RepoRecord> {
  // Git timestamps may carry a UTC offset: compare instants, not text.
  const until = window.until.getTime();
  const since = eventsStartDay(window);
  const inWindow = (instant: string | null | undefined): instant is string =>
    Boolean(instant) && dayOf(instant!) >= since && Date.parse(instant!) < until;
  const cut: string[] = [];
  let whole = true;
  let first: string | undefined;
  const noteCut = (full: boolean | undefined, oldest: string | null | undefined) => {
    if (full) whole = false;
    if (full && oldest && dayOf(oldest) >= since) cut.push(dayOf(oldest));
    if (oldest && Date.parse(oldest) < until && (!first || dayOf(oldest) < first)) first = dayOf(oldest);
  };
  const allReleases = present(node.releases?.nodes);
  const releaseNodes = allReleases.filter((r) => !r.isDraft);
  noteCut(node.releases?.pageInfo.hasNextPage, allReleases.at(-1)?.createdAt);
  const tagNodes = present(node.tags?.nodes);
  noteCut(node.tags?.pageInfo.hasNextPage, tagNodes.length ? tagDate(tagNodes.at(-1)!) : undefined);
  const deploymentNodes = present(node.deployments?.nodes);
  noteCut(node.deployments?.pageInfo.hasNextPage, deploymentNodes.at(-1)?.createdAt);

  const languages: Record<string, number> = {};
  for (const edge of present(node.languages?.edges)) languages[edge.node.name] = edge.size;
  const markers = (node.root?.entries ?? [])
    .filter((e) => e.type === 'blob' && (MARKER_FILES.has(e.name) || /\.tf$/i.test(e.name)))
    .map((e) => e.name)
    .sort();
  const byDay = <T extends { date: string }>(list: T[]) =>
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return {
    languages,
    topics: present(node.repositoryTopics?.nodes)
      .map((t) => t.topic.name)
      .sort(),
    markers,
    releases: byDay(
      releaseNodes
        .map((r) => ({ instant: r.publishedAt ?? r.createdAt, tag: r.tagName }))
        .filter((r) => inWindow(r.instant))
        .map((r) => ({ date: dayOf(r.instant), tag: r.tag })),
    ),
    tags: byDay(
      tagNodes
        .map((t) => ({ instant: tagDate(t), name: t.name }))
        .filter((t): t is { instant: string; name: string } => inWindow(t.instant))
        .map((t) => ({ date: dayOf(t.instant), name: t.name })),
    ),
    deployments: byDay(
      deploymentNodes
        .filter((d) => inWindow(d.createdAt))
        .map((d) => ({ date: dayOf(d.createdAt), environment: d.environment })),
    ),
    eventsSince: since,
    ...(cut.length ? { eventsFrom: cut.sort().at(-1)! } : {}),
    ...(whole && first && first >= since ? { firstEventDay: first } : {}),
  };
}
