import { GitHubAuthError, type GitHubClient, type GraphqlErrorItem, type Meter } from '../../github/client.js';
import type { OrgAccumulator } from './accumulator.js';
import { chunk, dayOf, present } from './answers.js';
import { tagDate } from './evidence.js';
import { moreEventsQuery, type EventPage, type TagNode } from './queries.js';
import { eventsStartDay, type CollectWindow } from './window.js';

/** Further pages of a repository's releases, tags or deployments read to reach back to the window's start. */
const MAX_EVENT_PAGES = 10;
/** (repository, author) pairs per look-back query. */
export const LOOKBACK_PAIRS_PER_QUERY = 50;
/** Event lists per follow-up query. */
const EVENT_LISTS_PER_QUERY = 10;

type EventKind = 'releases' | 'tags' | 'deployments';

function eventInstant(kind: EventKind, node: unknown): string | undefined {
  if (!node) return undefined;
  if (kind === 'releases') return (node as { createdAt: string }).createdAt;
  if (kind === 'deployments') return (node as { createdAt: string }).createdAt;
  return tagDate(node as TagNode);
}

/**
 * Further pages of each list of releases, tags and deployments whose first page is full and whose oldest event is
 * still inside the span read for events (eventsStartDay: the deploy baseline's start), until that day is reached (at
 * most MAX_EVENT_PAGES a list): no repository is left out of the deploy evidence for being busy.
 */
export async function followEvents(
  client: GitHubClient,
  accs: readonly OrgAccumulator[],
  window: CollectWindow,
  meter: Meter,
): Promise<void> {
  const from = eventsStartDay(window);
  for (;;) {
    const wanted: { acc: OrgAccumulator; repo: string; kind: EventKind; cursor: string }[] = [];
    for (const acc of accs) {
      if (acc.failure) continue;
      for (const [repo, node] of acc.evidenceNodes) {
        for (const kind of ['releases', 'tags', 'deployments'] as const) {
          const page = node[kind] as EventPage<unknown> | null | undefined;
          if (!page?.pageInfo.hasNextPage || !page.pageInfo.endCursor) continue;
          const oldest = eventInstant(kind, present(page.nodes).at(-1));
          if (!oldest || dayOf(oldest) < from) continue;
          const pagesKey = `${repo}\u0000${kind}`;
          if ((acc.eventPages.get(pagesKey) ?? 0) >= MAX_EVENT_PAGES) continue;
          wanted.push({ acc, repo, kind, cursor: page.pageInfo.endCursor });
        }
      }
    }
    if (wanted.length === 0) return;
    await Promise.all(
      chunk(wanted, EVENT_LISTS_PER_QUERY).map(async (part) => {
        const variables: Record<string, unknown> = {};
        part.forEach((w, i) => {
          variables[`o${i}`] = w.acc.profile.login;
          variables[`n${i}`] = w.repo;
          variables[`c${i}`] = w.cursor;
        });
        let answer: { data: Record<string, { list: EventPage<unknown> | null } | null>; errors: GraphqlErrorItem[] };
        try {
          answer = await client.graphql(
            moreEventsQuery(part.map((w) => w.kind)),
            variables,
            part.length === 1 ? part[0]!.acc.meter : meter,
          );
        } catch (err) {
          if (err instanceof GitHubAuthError) throw err;
          for (const w of part) w.acc.fail(`releases, tags or deployments of ${w.repo}: ${(err as Error).message}`);
          return;
        }
        const { data, errors } = answer;
        part.forEach((w, i) => {
          const pagesKey = `${w.repo}\u0000${w.kind}`;
          w.acc.eventPages.set(pagesKey, (w.acc.eventPages.get(pagesKey) ?? 0) + 1);
          const node = w.acc.evidenceNodes.get(w.repo)!;
          const page = node[w.kind] as EventPage<unknown>;
          const more = data?.[`r${i}`]?.list;
          if (!more) {
            w.acc.notePartial(errors, `r${i}`);
            page.pageInfo = { hasNextPage: page.pageInfo.hasNextPage, endCursor: null };
            return;
          }
          page.nodes.push(...more.nodes);
          page.pageInfo = more.pageInfo;
        });
      }),
    );
  }
}
