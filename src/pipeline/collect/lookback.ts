import { isAutomationAuthor } from '../../domain/automation.js';
import { addDays, isoDay } from '../../domain/periods.js';
import { NEW_CONTRIBUTOR_JOIN_DAYS, NEW_CONTRIBUTOR_LOOKBACK_DAYS, WINDOW_DAYS } from '../../domain/rules.js';
import type { AuthorLookback } from '../../domain/records.js';
import type { GitHubClient } from '../../github/client.js';
import type { OrgAccumulator } from './accumulator.js';
import { chunk, dayOf, present } from './answers.js';
import { lookbackQuery } from './queries.js';
import type { CollectWindow } from './window.js';

/** (repository, author) pairs per look-back query. */
const LOOKBACK_PAIRS_PER_QUERY = 50;

/**
 * The look-back: for every author of the collected commits (people only; by their GitHub account when their commits
 * are linked to one, which finds their commits under any of their addresses, a veteran's older address included; else
 * by the addresses seen on their commits),
 * the newest commit in the NEW_CONTRIBUTOR_LOOKBACK_DAYS before the collected days, and the newest in the
 * NEW_CONTRIBUTOR_LOOKBACK_DAYS before the NEW_CONTRIBUTOR_JOIN_DAYS ending at the period's end (none: they joined
 * lately), in each repository pushed since the earlier of the two began, read from the tip at the window's end.
 */
export async function readLookback(client: GitHubClient, acc: OrgAccumulator, window: CollectWindow): Promise<void> {
  const since = addDays(window.from, -(NEW_CONTRIBUTOR_LOOKBACK_DAYS + WINDOW_DAYS));
  const joinSince = addDays(isoDay(window.until), -NEW_CONTRIBUTOR_JOIN_DAYS);
  const joinLookSince = addDays(joinSince, -NEW_CONTRIBUTOR_LOOKBACK_DAYS);
  const seenBeforeJoin: Record<string, string | null> = {};
  const lookback: AuthorLookback = { since, until: addDays(window.from, -1), lastSeen: {}, joinSince, seenBeforeJoin };
  const authors = [...acc.emails].filter(([key]) => !isAutomationAuthor(key));
  for (const [key] of authors) [lookback.lastSeen[key], seenBeforeJoin[key]] = [null, null];
  const earliest = since < joinLookSince ? since : joinLookSince;
  const repos = acc.repos.filter((r) => !r.fork && (acc.pushedAt.get(r.name) ?? '') >= `${earliest}T00:00:00Z`);
  const pairs = repos.flatMap((r) =>
    authors.map(([key, emails]) => ({
      repo: r.name,
      key,
      author: acc.userIds.has(key) ? { id: acc.userIds.get(key)! } : { emails: [...emails].sort() },
      from: acc.tips.get(r.name)?.oid ?? acc.branches.get(r.name) ?? 'HEAD',
    })),
  );
  for (const part of chunk(pairs, LOOKBACK_PAIRS_PER_QUERY)) {
    const variables: Record<string, unknown> = {
      since: `${since}T00:00:00Z`,
      until: `${window.from}T00:00:00Z`,
      joinLookSince: `${joinLookSince}T00:00:00Z`,
      joinSince: `${joinSince}T00:00:00Z`,
    };
    part.forEach((p, i) => {
      variables[`o${i}`] = acc.profile.login;
      variables[`n${i}`] = p.repo;
      variables[`x${i}`] = p.from;
      variables[`e${i}`] = p.author;
    });
    type History = { nodes: ({ committedDate: string } | null)[] };
    const { data, errors } = await client.graphql<
      Record<string, { object: { history?: History; beforeJoin?: History } | null } | null>
    >(lookbackQuery(part.length), variables, acc.meter);
    if (errors.length) acc.notes.push(`the authors' look-back was partial (${errors[0]!.message})`);
    const later = (seen: Record<string, string | null>, key: string, node: { committedDate: string } | undefined) => {
      if (!node) return;
      const day = dayOf(node.committedDate);
      const known = seen[key];
      if (!known || known < day) seen[key] = day;
    };
    part.forEach((p, i) => {
      const object = data?.[`a${i}`]?.object;
      later(lookback.lastSeen, p.key, present(object?.history?.nodes).at(0));
      later(seenBeforeJoin, p.key, present(object?.beforeJoin?.nodes).at(0));
    });
  }
  acc.lookback = lookback;
}
