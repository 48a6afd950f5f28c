import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueKey } from '../../src/payments/keys.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Bodies of many shapes, read field by field.
type Json = Record<string, any>;

/**
 * One table of period reads: each row a question (trending, a sector's ranking, a startup in a week, its history, a
 * comparison and its leader, the stored periods; for the current period and an earlier one), each surface that
 * answers it one column (REST, the tools through /api/agent/call, A2A, the website's pages). What a surface answered
 * is read into the same plain value (names in order, a week's figures, weeks with their figures); every surface must
 * answer what the first one answers, and that answer must not be empty.
 */
interface Case {
  question: string;
  /** The surfaces that answer it, each read into the row's plain value. */
  surfaces: Record<string, () => Promise<unknown>>;
}

/** A few HTML entities the templates write; the demo's names need no more. */
const text = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .trim();

/** The startup names of a ranking table's rows, in the page's order. */
const rankingNames = (html: string) =>
  [...html.matchAll(/<td class="lead">\s*(?:<a [^>]*>)?([^<]+?)(?:<\/a>)?\s*<\/td>/g)].map((m) => text(m[1]!));

describe('period reads across surfaces', () => {
  let svc: TestApp;
  let key: string;
  let signals: Json;
  /** Every line of /api/dataset.jsonl: every startup of every stored period. */
  let lines: Json[];
  let current: string;
  let earlier: string;
  let sector: string;
  /** A startup tracked in the earlier period, and two of the current period with different composite scores. */
  let login: string;
  let pair: [Json, Json];

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    svc.get(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const json = async (path: string) => (await (await svc.get(path)).json()) as Json;
  const page = async (path: string) => {
    const res = await svc.get(path);
    assert.equal(res.status, 200, path);
    return res.text();
  };

  /** A tool's result through /api/agent/call. */
  async function tool(name: string, args: Json): Promise<Json> {
    const res = await post('/api/agent/call', { name, arguments: args });
    assert.equal(res.status, 200, `${name}: ${await res.clone().text()}`);
    return (await res.json()) as Json;
  }

  /** The data of a completed A2A task (protocol 0.3 JSON-RPC, a data part naming the skill). */
  async function a2a(skill: string, args: Json): Promise<Json> {
    const res = await post('/api/a2a', {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: crypto.randomUUID(),
          role: 'user',
          parts: [{ kind: 'data', data: { skill, arguments: args } }],
        },
      },
    });
    const task = ((await res.json()) as Json).result as Json;
    assert.equal(task.status.state, 'completed', JSON.stringify(task.status));
    return task.artifacts[0].parts.find((p: Json) => p.kind === 'data').data as Json;
  }

  /** The dataset lines of one period. */
  const linesOf = (period: string) => lines.filter((l) => l.period === period);
  /** A period's top 20 as the dataset lines hold it. */
  const trendingOf = (period: string) =>
    linesOf(period)
      .filter((l) => l.rank !== null && l.rank <= 20)
      .sort((a, b) => a.rank - b.rank)
      .map((l) => l.name as string);
  /** A sector's ranking of one period as the dataset lines hold it. */
  const sectorOf = (period: string) =>
    linesOf(period)
      .filter((l) => l.sector === sector)
      .sort((a, b) => a.sectorRank - b.sectorRank)
      .map((l) => l.name as string);
  /** The figures of one week of one startup: what every surface shows of it. */
  const week = (commits: number, rankInSector: number, compositeScore: number) => ({
    commits,
    rankInSector,
    compositeScore,
  });
  /** A comparison: the names side by side and the leader. */
  const comparison = (names: string[], leader: string | undefined) => ({ names, leader });

  const cases = (): Case[] => [
    {
      question: 'the trending list of the current period',
      surfaces: {
        'GET /api/signals.json': async () => signals.trending.map((s: Json) => s.name),
        'GET /api/dataset.jsonl': async () => trendingOf(current),
        'tool get_trending_startups': async () =>
          (await tool('get_trending_startups', {})).startups.map((s: Json) => s.name),
        'tool get_trending_startups_in_period': async () =>
          (await tool('get_trending_startups_in_period', { period: current })).startups.map((s: Json) => s.name),
        'A2A trending': async () => (await a2a('trending', {})).startups.map((s: Json) => s.name),
        'page /': async () => rankingNames((await page('/')).split('<h2 id="ask">')[0]!),
        'page /periods/{current}': async () => periodPageNames(await page(`/periods/${current}`)),
      },
    },
    {
      question: 'the trending list of an earlier period',
      surfaces: {
        'GET /api/dataset.jsonl': async () => trendingOf(earlier),
        'tool get_trending_startups_in_period': async () =>
          (await tool('get_trending_startups_in_period', { period: earlier })).startups.map((s: Json) => s.name),
        'A2A trending': async () => (await a2a('trending', { period: earlier })).startups.map((s: Json) => s.name),
        'page /periods/{earlier}': async () => periodPageNames(await page(`/periods/${earlier}`)),
      },
    },
    {
      question: "a sector's ranking in the current period",
      surfaces: {
        'GET /api/signals.json': async () =>
          signals.sectors.find((s: Json) => s.slug === sector).startups.map((s: Json) => s.name),
        'GET /api/dataset.jsonl': async () => sectorOf(current),
        'GET /sectors/{slug}/ranking.json': async () =>
          (await json(`/sectors/${sector}/ranking.json`)).startups.map((s: Json) => s.name),
        'tool search_startups_by_sector': async () =>
          (await tool('search_startups_by_sector', { sector })).startups.map((s: Json) => s.name),
        'tool search_startups_by_sector_in_period': async () =>
          (await tool('search_startups_by_sector_in_period', { sector, period: current })).startups.map(
            (s: Json) => s.name,
          ),
        'A2A sector': async () => (await a2a('sector', { sector })).startups.map((s: Json) => s.name),
        'page /sectors/{slug}': async () => rankingNames(await page(`/sectors/${sector}`)),
      },
    },
    {
      question: "a sector's ranking in an earlier period",
      surfaces: {
        'GET /api/dataset.jsonl': async () => sectorOf(earlier),
        'tool search_startups_by_sector_in_period': async () =>
          (await tool('search_startups_by_sector_in_period', { sector, period: earlier })).startups.map(
            (s: Json) => s.name,
          ),
        'A2A sector': async () => (await a2a('sector', { sector, period: earlier })).startups.map((s: Json) => s.name),
        'page /sectors/{slug}?period=': async () => rankingNames(await page(`/sectors/${sector}?period=${earlier}`)),
      },
    },
    {
      question: 'one startup in an earlier week',
      surfaces: {
        'GET /api/dataset.jsonl': async () => {
          const l = linesOf(earlier).find((x) => x.org === login)!;
          return week(l.commitVelocity14d, l.sectorRank, l.compositeScore);
        },
        'tool get_startup_signal_in_period': async () => {
          const r = await tool('get_startup_signal_in_period', { name: login, period: earlier });
          return week(r.startup.commitVelocity14d, r.rankInSector, r.compositeScore);
        },
        'A2A startup-signal (period)': async () => {
          const r = await a2a('startup-signal', { name: login, period: earlier });
          return week(r.startup.commitVelocity14d, r.rankInSector, r.compositeScore);
        },
        'tool get_startup_history': async () => {
          const r = (await tool('get_startup_history', { name: login })).history.find(
            (h: Json) => h.period === earlier,
          );
          return week(r.commitVelocity14d, r.rankInSector, r.compositeScore);
        },
        'page /startups/{login}?period=': async () => {
          const html = await page(`/startups/${login.toLowerCase()}?period=${earlier}`);
          return week(
            Number(/<dt>Commits, last \d+ days<\/dt>\s*<dd>([\d,]+)/.exec(html)![1]!.replace(/,/g, '')),
            Number(/<dt>Rank in [^<]*<\/dt>\s*<dd>(\d+)/.exec(html)![1]),
            Number(/<dt>Composite score<\/dt>\s*<dd>([\d.]+)/.exec(html)![1]),
          );
        },
      },
    },
    {
      question: "one startup's history over the stored weeks",
      surfaces: {
        'GET /api/dataset.jsonl': async () =>
          lines.filter((l) => l.org === login).map((l) => [l.period, l.commitVelocity14d, l.rank]),
        'GET /startups/{login}/history.json': async () =>
          (await json(`/startups/${login.toLowerCase()}/history.json`)).weeks.map((w: Json) => [
            w.period,
            w.commitVelocity14d,
            w.rankOverall,
          ]),
        'tool get_startup_history': async () =>
          (await tool('get_startup_history', { name: login })).history.map((h: Json) => [
            h.period,
            h.commitVelocity14d,
            h.rankOverall,
          ]),
        'A2A startup-signal (history)': async () =>
          (await a2a('startup-signal', { name: login, history: true })).periods.map((h: Json) => [
            h.period,
            h.commitVelocity14d,
            h.rankOverall,
          ]),
        'POST /api/agent/deep-signal (paid)': async () => {
          const res = await post('/api/agent/deep-signal', { name: login }, { authorization: `Bearer ${key}` });
          return ((await res.json()) as Json).history.map((h: Json) => [h.period, h.commitVelocity14d, h.rankOverall]);
        },
        'page /startups/{login}': async () => {
          const html = await page(`/startups/${login.toLowerCase()}`);
          return [
            ...html.matchAll(
              /<td><a href="[^"]*\?period=([^"]+)">[^<]*<\/a><\/td>\s*<td class="num">(\d+)<\/td>\s*<td class="num">\d+<\/td>\s*<td class="num">([^<]+)<\/td>/g,
            ),
          ].map((m) => [m[1], Number(m[2]), m[3]!.trim() === '—' ? null : Number(m[3])]);
        },
      },
    },
    {
      question: 'two startups compared in the current period, and the leader',
      surfaces: {
        'GET /api/dataset.jsonl': async () => {
          const [a, b] = pair.map((s) => linesOf(current).find((l) => l.org === s.org)!);
          return comparison([a!.name, b!.name], (b!.compositeScore > a!.compositeScore ? b! : a!).name);
        },
        'tool compare_startups': async () => {
          const r = await tool('compare_startups', { names: pair.map((s) => s.name) });
          return comparison(
            r.startups.map((s: Json) => s.startup.name),
            r.leader,
          );
        },
        'A2A startup-signal (compare)': async () => {
          const r = await a2a('startup-signal', { name: pair[0].name, compare: [pair[1].name] });
          return comparison(
            r.startups.map((s: Json) => s.name),
            r.leader,
          );
        },
        'page /compare/{a}-vs-{b}': async () => {
          const html = await page(`/compare/${pair[0].org.toLowerCase()}-vs-${pair[1].org.toLowerCase()}`);
          const [a, b] = text(/<h1>([^<]+)<\/h1>/.exec(html)![1]!).split(' vs ');
          const leader = /\. ([^.;]+?) leads on composite score \(/.exec(html)?.[1];
          return comparison([a!, b!], leader && text(leader));
        },
      },
    },
    {
      question: 'two startups compared in an earlier period, and the leader',
      surfaces: {
        'GET /api/dataset.jsonl': async () => {
          const [a, b] = pair.map((s) => linesOf(earlier).find((l) => l.org === s.org)!);
          return comparison([a!.name, b!.name], (b!.compositeScore > a!.compositeScore ? b! : a!).name);
        },
        'tool compare_startups': async () => {
          const r = await tool('compare_startups', { names: pair.map((s) => s.name), period: earlier });
          return comparison(
            r.startups.map((s: Json) => s.startup.name),
            r.leader,
          );
        },
      },
    },
    {
      question: 'the stored periods, newest first',
      surfaces: {
        'GET /api/changelog.json': async () => (await json('/api/changelog.json')).periods.map((p: Json) => p.slug),
        'tool list_periods': async () => (await tool('list_periods', {})).periods.map((p: Json) => p.slug),
        'A2A summary (periods)': async () => (await a2a('summary', { periods: true })).periods.map((p: Json) => p.slug),
        'page /periods': async () =>
          [...(await page('/periods')).matchAll(/<td><a href="\/periods\/([^"]+)">/g)].map((m) => m[1]),
      },
    },
  ];

  /** The names of a period page's trending list. */
  function periodPageNames(html: string): string[] {
    const list = /<h2>Trending that week<\/h2>\s*<ol>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '';
    return [...list.matchAll(/<li>\s*(?:<a [^>]*>)?([^<(]+?)(?:<\/a>)?\s*\(/g)].map((m) => text(m[1]!));
  }

  before(async () => {
    svc = await startTestApp();
    key = (await issueKey(svc.service.store.db, { credits: 10, reason: 'test' })).key;
    signals = await json('/api/signals.json');
    lines = (await (await svc.get('/api/dataset.jsonl')).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    const periods = (await json('/api/changelog.json')).periods as Json[];
    current = signals.meta.period.slug;
    earlier = periods[3]!.slug;
    // The sector of the current leader.
    sector = linesOf(current).find((l) => l.rank === 1)!.sector;
    // A startup tracked in both weeks and ranked across sectors now.
    const earlierLogins = new Set(linesOf(earlier).map((l) => l.org));
    login = linesOf(current).find((l) => earlierLogins.has(l.org) && l.rank !== null)!.org;
    // Two startups tracked in both weeks, the second with the higher composite score in each (so the leader is not
    // merely the first name asked).
    const both = linesOf(current).filter((l) => earlierLogins.has(l.org));
    const scoreIn = (period: string, org: string) => linesOf(period).find((l) => l.org === org)!.compositeScore;
    const b = both[0]!;
    const a = both.find(
      (l) =>
        l.org !== b.org &&
        scoreIn(current, l.org) < scoreIn(current, b.org) &&
        scoreIn(earlier, l.org) < scoreIn(earlier, b.org),
    )!;
    pair = [a, b];
  });
  after(async () => {
    await svc?.close();
  });

  for (const row of cases()) {
    test(`${row.question}: the same answer on every surface`, async () => {
      const got: Record<string, unknown> = {};
      for (const [surface, see] of Object.entries(row.surfaces)) got[surface] = await see();
      const [first, answer] = Object.entries(got)[0]!;
      assert.ok(
        Array.isArray(answer) ? answer.length > 0 : answer !== undefined,
        `${first} answered nothing: ${JSON.stringify(answer)}`,
      );
      const want = Object.fromEntries(Object.keys(got).map((s) => [s, answer]));
      assert.deepEqual(got, want, row.question);
    });
  }
});
