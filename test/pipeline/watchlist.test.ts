import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import YAML from 'yaml';
import { parseWatchlist, readWatchlist, watchlistYaml, WatchlistError } from '../../src/pipeline/watchlist.js';

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
});
