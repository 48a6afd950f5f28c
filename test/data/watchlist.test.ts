import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { before, describe, test } from 'node:test';
import YAML from 'yaml';
import type { WatchlistEntry } from '../../src/domain/records.js';
import { SECTOR_SLUGS } from '../../src/schemas/enums.js';
import { GITHUB_LOGIN, readWatchlist, SHIPPED_WATCHLIST } from '../../src/pipeline/watchlist.js';

/** The least number of organisations each of the 15 sectors holds in the curated watchlist. */
const MIN_PER_SECTOR = 16;
/** The least number of startups the curated watchlist holds in all. */
const MIN_TOTAL = 400;

/** The curated watchlist shipped in data/watchlist.yaml (its inclusion rule is written at its top). */
describe('the curated watchlist (data/watchlist.yaml)', () => {
  let entries: WatchlistEntry[];
  let raw: Record<string, unknown>[];

  before(async () => {
    const text = await fs.readFile(SHIPPED_WATCHLIST, 'utf8');
    raw = (YAML.parse(text) as { orgs: Record<string, unknown>[] }).orgs;
    entries = await readWatchlist(SHIPPED_WATCHLIST);
  });

  test('it is a valid watchlist: known sectors, GitHub logins, one entry per organisation in any case', () => {
    // readWatchlist refuses unknown sectors, malformed logins and a login listed twice (case-insensitively).
    assert.equal(entries.length, raw.length);
    assert.equal(new Set(entries.map((e) => e.login.toLowerCase())).size, entries.length);
    for (const e of entries) assert.match(e.login, GITHUB_LOGIN);
  });

  test('its inclusion rule is written at the top of the file', async () => {
    const text = await fs.readFile(SHIPPED_WATCHLIST, 'utf8');
    const header = text.slice(0, text.indexOf('\norgs:'));
    assert.match(header, /Inclusion rule/);
    assert.match(header, /privately held/);
  });

  test(`it holds at least ${MIN_TOTAL} startups`, () => {
    assert.ok(entries.length >= MIN_TOTAL, String(entries.length));
  });

  test(`each of the ${SECTOR_SLUGS.length} sectors holds at least ${MIN_PER_SECTOR} organisations`, () => {
    const short = SECTOR_SLUGS.map((sector) => ({
      sector,
      count: entries.filter((e) => e.sector === sector).length,
    })).filter((s) => s.count < MIN_PER_SECTOR);
    assert.deepEqual(short, [], `sectors below ${MIN_PER_SECTOR}: ${JSON.stringify(short)}`);
  });

  test('every entry has a display name, an https website and a repository of its own organisation', () => {
    const incomplete = entries.filter(
      (e) =>
        !e.displayName ||
        !e.website?.startsWith('https://') ||
        !e.repository ||
        e.repository.split('/')[0]!.toLowerCase() !== e.login.toLowerCase(),
    );
    assert.deepEqual(
      incomplete.map((e) => e.login),
      [],
    );
  });

  test('every stated stage names the public source stating it', () => {
    assert.deepEqual(
      entries.filter((e) => e.stage !== undefined && !e.stageSource).map((e) => e.login),
      [],
    );
  });

  test('every stated country names the public source stating it', () => {
    assert.deepEqual(
      entries.filter((e) => e.country !== undefined && !e.countrySource).map((e) => e.login),
      [],
    );
  });

  test('every URL in the file is https', () => {
    const urls = raw.flatMap((e) =>
      ['website', 'linkedin', 'stageSource', 'countrySource'].flatMap((k) =>
        typeof e[k] === 'string' ? [`${String(e.login)} ${k}: ${e[k] as string}`] : [],
      ),
    );
    assert.deepEqual(
      urls.filter((u) => !/: https:\/\//.test(u)),
      [],
    );
  });
  test('no entry is a company the data records as acquired or listed (diligence deals, validated milestones)', async () => {
    // The inclusion rule admits independent, privately held companies only.
    const deals = YAML.parse(await fs.readFile('data/diligence/acquisitions.yaml', 'utf8')) as { target: string }[];
    const milestones = YAML.parse(await fs.readFile('data/scout/validated-companies.yaml', 'utf8')) as {
      org: string;
      milestone: string;
    }[];
    const acquired = new Set(deals.map((d) => d.target.toLowerCase()));
    const exited = new Set(
      milestones.filter((m) => m.milestone === 'acquisition' || m.milestone === 'ipo').map((m) => m.org.toLowerCase()),
    );
    for (const e of raw) {
      assert.ok(!acquired.has(String(e['name']).toLowerCase()), `${String(e['name'])} was acquired`);
      assert.ok(!exited.has(String(e['login']).toLowerCase()), `${String(e['login'])} was acquired or listed`);
    }
  });

  test('where an entry records when it was added, the date is a real day not after today', () => {
    for (const e of raw.filter((x) => x['added'] !== undefined)) {
      const added = String(e['added'] instanceof Date ? e['added'].toISOString().slice(0, 10) : e['added']);
      assert.match(added, /^\d{4}-\d{2}-\d{2}$/, String(e['login']));
      assert.equal(new Date(`${added}T00:00:00Z`).toISOString().slice(0, 10), added, String(e['login']));
      assert.ok(added <= new Date().toISOString().slice(0, 10), String(e['login']));
    }
  });
});
