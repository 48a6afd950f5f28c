import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import YAML from 'yaml';
import {
  chooseWatchlist,
  parseWatchlist,
  readWatchlist,
  SHIPPED_WATCHLIST,
  watchlistYaml,
  WatchlistError,
} from '../../src/pipeline/watchlist.js';

describe('watchlist', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'watchlist-'));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  test('a YAML file with an orgs list becomes watchlist entries with optional fields', async () => {
    const file = path.join(dir, 'w.yaml');
    await fs.writeFile(
      file,
      [
        'orgs:',
        '  - login: acme-labs',
        '    name: Acme Labs',
        '    sector: data-infrastructure',
        '    stage: Seed',
        '    website: https://acme.example/',
        '    linkedin: https://www.linkedin.com/company/acme-example',
        '  - login: quiet-co',
        '    name: Quiet Co',
        '    sector: healthcare',
      ].join('\n'),
    );
    assert.deepEqual(await readWatchlist(file), [
      {
        login: 'acme-labs',
        displayName: 'Acme Labs',
        sector: 'data-infrastructure',
        stage: 'Seed',
        description: undefined,
        website: 'https://acme.example/',
        linkedin: 'https://www.linkedin.com/company/acme-example',
      },
      {
        login: 'quiet-co',
        displayName: 'Quiet Co',
        sector: 'healthcare',
        stage: undefined,
        description: undefined,
        website: undefined,
        linkedin: undefined,
      },
    ]);
  });

  test('a JSON file holding a plain list is read too', async () => {
    const file = path.join(dir, 'w.json');
    await fs.writeFile(file, JSON.stringify([{ login: 'acme-labs', name: 'Acme', sector: 'gaming' }]));
    assert.deepEqual(
      (await readWatchlist(file)).map((e) => [e.login, e.sector]),
      [['acme-labs', 'gaming']],
    );
  });

  test('the same login twice, in any case, is refused: an organisation sits in one sector', () => {
    assert.throws(
      () =>
        parseWatchlist([
          { login: 'Acme', name: 'Acme', sector: 'gaming' },
          { login: 'acme', name: 'Acme', sector: 'edtech' },
        ]),
      (err: unknown) =>
        err instanceof WatchlistError &&
        err.message ===
          'watchlist is not valid:\n  entry 2 (acme): acme is already entry 1; an organisation sits in one sector',
    );
  });

  test('an unknown sector, a bad login and an unknown field are all reported with their entry', () => {
    assert.throws(
      () =>
        parseWatchlist({
          orgs: [
            { login: 'ok-org', name: 'Ok', sector: 'fintech' },
            { login: '-bad-', name: 'Bad', sector: 'gaming' },
            { login: 'extra', name: 'Extra', sector: 'gaming', founded: 2020 },
          ],
        }),
      (err: unknown) => {
        const message = (err as Error).message;
        assert.match(message, /entry 1 \(ok-org\): sector: /);
        assert.match(message, /entry 2 \(-bad-\): login: must be a GitHub organisation login/);
        assert.match(message, /entry 3 \(extra\): .*founded/);
        return true;
      },
    );
  });

  test('a missing file names the example to copy', async () => {
    await assert.rejects(
      readWatchlist(path.join(dir, 'absent.yaml')),
      (err: unknown) =>
        err instanceof WatchlistError && /does not exist: copy watchlist.example.yaml/.test((err as Error).message),
    );
  });

  test('an empty list is refused', () => {
    assert.throws(() => parseWatchlist({ orgs: [] }), /lists no organisations/);
  });

  test('the watchlist example at the repository root is valid', async () => {
    const entries = await readWatchlist(path.resolve('watchlist.example.yaml'));
    assert.ok(entries.length >= 5);
  });

  test('written candidates read back as the same entries', () => {
    const entries = parseWatchlist([
      { login: 'acme-labs', name: 'Acme', sector: 'gaming', website: 'https://acme.example/' },
    ]);
    const text = watchlistYaml(entries, new Map([['acme-labs', 'a comment']]));
    assert.match(text, /# a comment/);
    assert.deepEqual(parseWatchlist(YAML.parse(text)), entries);
  });

  test('a stage and a country with their sources, and a repository, are read with the entry', () => {
    const [entry] = parseWatchlist([
      {
        login: 'acme-labs',
        name: 'Acme Labs',
        sector: 'robotics',
        stage: 'Seed',
        stageSource: 'https://news.example/acme-raises-seed',
        country: 'DE',
        countrySource: 'https://acme.example/about',
        repository: 'acme-labs/robot-sdk',
      },
    ]);
    assert.equal(entry!.stageSource, 'https://news.example/acme-raises-seed');
    assert.equal(entry!.country, 'DE');
    assert.equal(entry!.countrySource, 'https://acme.example/about');
    assert.equal(entry!.repository, 'acme-labs/robot-sdk');
  });

  test('a source without the stage or country it would support is refused', () => {
    assert.throws(
      () =>
        parseWatchlist([
          { login: 'acme', name: 'Acme', sector: 'gaming', stageSource: 'https://news.example/a' },
          { login: 'beta', name: 'Beta', sector: 'gaming', countrySource: 'https://beta.example/about' },
        ]),
      (err: unknown) => {
        const message = (err as Error).message;
        assert.match(message, /entry 1 \(acme\): stageSource: names the source of a stage, but no stage is given/);
        assert.match(
          message,
          /entry 2 \(beta\): countrySource: names the source of a country, but no country is given/,
        );
        return true;
      },
    );
  });

  test('a source must be an https URL', () => {
    assert.throws(
      () =>
        parseWatchlist([
          { login: 'acme', name: 'Acme', sector: 'gaming', stage: 'Seed', stageSource: 'http://news.example/a' },
        ]),
      /entry 1 \(acme\): stageSource: must be an absolute https URL/,
    );
  });

  test('a country is an assigned ISO 3166-1 alpha-2 code: names, lower case and reserved codes are refused', () => {
    for (const country of ['Germany', 'de', 'UK', 'EU', 'XX', 'ZZ']) {
      assert.throws(
        () =>
          parseWatchlist([
            { login: 'acme', name: 'Acme', sector: 'gaming', country, countrySource: 'https://acme.example/' },
          ]),
        /country: must be an ISO 3166-1 alpha-2 country code/,
        country,
      );
    }
  });

  test("a repository must belong to the entry's organisation", () => {
    assert.throws(
      () => parseWatchlist([{ login: 'acme', name: 'Acme', sector: 'gaming', repository: 'someone-else/fork' }]),
      /entry 1 \(acme\): repository: must be a repository of the organisation acme, not of someone-else/,
    );
  });

  test('a named watchlist is used as named, even when the file is missing', () => {
    const choice = chooseWatchlist({
      flag: 'mine.yaml',
      configured: undefined,
      defaultFile: '/srv/watchlist.yaml',
      exists: () => false,
    });
    assert.deepEqual(choice, { file: path.resolve('mine.yaml'), shipped: false });
  });

  test('PIPELINE_WATCHLIST, when set, is used instead of the default file', () => {
    const choice = chooseWatchlist({
      flag: undefined,
      configured: '/srv/theirs.yaml',
      defaultFile: '/srv/watchlist.yaml',
      exists: () => true,
    });
    assert.deepEqual(choice, { file: '/srv/theirs.yaml', shipped: false });
  });

  test('the default ./watchlist.yaml is used when it exists', () => {
    const choice = chooseWatchlist({
      flag: undefined,
      configured: undefined,
      defaultFile: '/srv/watchlist.yaml',
      exists: (f) => f === '/srv/watchlist.yaml',
    });
    assert.deepEqual(choice, { file: '/srv/watchlist.yaml', shipped: false });
  });

  test('with no watchlist named and none at the default path, the shipped curated watchlist is used', () => {
    const choice = chooseWatchlist({
      flag: undefined,
      configured: undefined,
      defaultFile: '/srv/watchlist.yaml',
      exists: () => false,
    });
    assert.deepEqual(choice, { file: SHIPPED_WATCHLIST, shipped: true });
    assert.equal(path.relative(process.cwd(), SHIPPED_WATCHLIST), path.join('data', 'watchlist.yaml'));
  });

  test('new keys survive writing candidates and reading them back', () => {
    const entries = parseWatchlist([
      {
        login: 'acme-labs',
        name: 'Acme',
        sector: 'gaming',
        stage: 'Seed',
        stageSource: 'https://news.example/a',
        country: 'FR',
        countrySource: 'https://acme.example/',
        repository: 'acme-labs/game',
        repositories: ['acme-labs/engine', 'acme-labs/infra'],
      },
    ]);
    assert.deepEqual(parseWatchlist(YAML.parse(watchlistYaml(entries))), entries);
  });

  test('an entry may list several repositories of its organisation', () => {
    const [entry] = parseWatchlist([
      { login: 'acme', name: 'Acme', sector: 'gaming', repositories: ['acme/app', 'Acme/infra'] },
    ]);
    assert.deepEqual(entry!.repositories, ['acme/app', 'Acme/infra']);
  });

  test("each listed repository must belong to the entry's organisation, and be listed once", () => {
    assert.throws(
      () =>
        parseWatchlist([{ login: 'acme', name: 'Acme', sector: 'gaming', repositories: ['acme/app', 'other/app'] }]),
      /entry 1 \(acme\): repositories\.1: must be a repository of the organisation acme, not of other/,
    );
    assert.throws(
      () =>
        parseWatchlist([
          { login: 'acme', name: 'Acme', sector: 'gaming', repository: 'acme/app', repositories: ['acme/App'] },
        ]),
      /repositories\.0: acme\/App is listed twice/,
    );
  });
});
