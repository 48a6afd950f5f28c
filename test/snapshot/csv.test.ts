import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CSV_ROWS_PER_STEP,
  neutraliseCell,
  renderSignalsCsv,
  renderSignalsCsvInSteps,
} from '../../src/snapshot/csv.js';
import type { Startup } from '../../src/schemas/signals.js';

const CSV_COLUMNS_LINE =
  'period,sector,sectorRank,trendingRank,name,description,stage,geography,commitVelocity14d,commitVelocityChange,contributors,contributorGrowth,newRepos,signalType,githubUrl,websiteUrl,linkedinUrl,synthetic,signalStrength,signalEvidence,collection,collectionNote,stageSource';

const startup = (over: Partial<Startup>): Startup => ({
  name: 'Acme',
  description: 'Plain',
  stage: 'Seed',
  geography: 'Germany',
  commitVelocity14d: 10,
  commitVelocityChange: '+42%',
  contributors: 2,
  contributorGrowth: '-7%',
  newRepos: 1,
  signalType: 'Deploy frequency spike',
  githubUrl: 'https://github.com/acme',
  websiteUrl: 'https://acme.example/',
  linkedinUrl: 'https://linkedin.example/company/acme',
  ...over,
});

describe('signals CSV', () => {
  test('cells that could start a formula get a leading apostrophe', () => {
    for (const v of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '=HYPERLINK("http://evil")']) {
      assert.equal(neutraliseCell(v), `'${v}`, JSON.stringify(v));
    }
  });

  test('plain signed numbers stay numbers', () => {
    for (const v of ['+42%', '-7%', '+0%', '-3', '+1.5']) assert.equal(neutraliseCell(v), v);
  });

  test('rows end with CRLF and fields with comma, quote, CR or LF are quoted with doubled quotes', () => {
    const csv = renderSignalsCsv(
      '2026-w47',
      new Map([
        [
          'robotics',
          [
            {
              login: 'acme',
              rankInSector: 1,
              startup: startup({ name: 'A, "B"', description: 'line1\nline2\rx' }),
              metrics: {},
            },
          ],
        ],
      ]),
      new Map([['acme', 3]]),
    );
    const lines = csv.split('\r\n');
    assert.equal(lines.at(-1), '');
    assert.match(lines[0]!, /^period,sector,sectorRank,trendingRank,name,description,stage,/);
    assert.ok(csv.includes('"A, ""B"""'));
    assert.ok(csv.includes('"line1\nline2\rx"'));
    assert.ok(lines[1]!.startsWith('2026-w47,robotics,1,3,'));
    assert.ok(lines[1]!.includes(',false,none,'), 'real data is not labelled synthetic');
  });

  test('rows of the synthetic demo dataset say synthetic = true', () => {
    const csv = renderSignalsCsv(
      '2026-w47',
      new Map([['robotics', [{ login: 'x', rankInSector: 1, startup: startup({}), metrics: {} }]]]),
      new Map(),
      true,
    );
    const [header, row] = csv.split('\r\n');
    assert.ok(
      header!.endsWith(',linkedinUrl,synthetic,signalStrength,signalEvidence,collection,collectionNote,stageSource'),
    );
    assert.ok(row!.includes(',true,none,'));
  });

  test('every row ends with its signal strength and evidence', () => {
    const evidence = (strength: string, summary: string) => ({
      signalEvidence: { rule: 'evidence-v2', strength, summary },
    });
    const csv = renderSignalsCsv(
      '2026-w47',
      new Map([
        [
          'robotics',
          [
            {
              login: 'a',
              rankInSector: 1,
              startup: startup({}),
              metrics: evidence('strong', 'Deploy frequency spike (strong evidence): 5 deploy days, 2 releases'),
            },
            {
              login: 'b',
              rankInSector: 2,
              startup: startup({ signalType: 'Framework migration' }),
              metrics: evidence('none', 'Framework migration: no evidence for any signal type this period'),
            },
          ],
        ],
      ]),
      new Map([['a', 1]]),
    );
    const [, a, b] = csv.split('\r\n');
    assert.ok(
      a!.endsWith(
        ',false,strong,"Deploy frequency spike (strong evidence): 5 deploy days, 2 releases",complete,,estimated',
      ),
      a,
    );
    // A record without evidence says there is no clear signal, whatever summary older code stored with it.
    assert.ok(b!.includes(',false,none,"No clear signal this week: no signal type has evidence behind it'), b);
  });

  test('every row ends with whether its collection was complete, and what was missing when partial', () => {
    const note = "GitHub's answer was partial (repositories.nodes.0: Something went wrong); what it answered was kept";
    const csv = renderSignalsCsv(
      '2026-w47',
      new Map([
        [
          'robotics',
          [
            { login: 'a', rankInSector: 1, startup: startup({}), metrics: {} },
            {
              login: 'b',
              rankInSector: 2,
              startup: startup({}),
              metrics: {},
              collection: { collection: 'partial', collectionNote: note },
            },
            {
              login: 'c',
              rankInSector: 3,
              startup: startup({}),
              metrics: {},
              collection: { collection: 'unknown', collectionNote: null },
            },
          ],
        ],
      ]),
      new Map(),
    );
    const [header, a, b, c] = csv.split('\r\n');
    assert.ok(header!.endsWith(',signalEvidence,collection,collectionNote,stageSource'), header);
    assert.ok(a!.endsWith(',complete,,estimated'), a);
    assert.ok(b!.endsWith(`,partial,${note},estimated`), b);
    assert.ok(c!.endsWith(',unknown,,estimated'), c);
  });

  test('every row ends with how its stage is known: estimated, the watchlist, or its public source', () => {
    const row = (login: string, stageSource?: string) => ({
      login,
      rankInSector: 1,
      startup: startup({}),
      metrics: stageSource ? { stageSource } : {},
    });
    const csv = renderSignalsCsv(
      '2026-w47',
      new Map([
        [
          'robotics',
          [
            row('a', 'https://acme.example/news/seed-round'),
            row('b', 'watchlist'),
            row('c', 'estimated'),
            row('d'),
            row('e', 'javascript:alert(1)'),
          ],
        ],
      ]),
      new Map(),
    );
    const cells = csv
      .split('\r\n')
      .slice(1, 6)
      .map((line) => line.split(',').at(-1));
    assert.deepEqual(cells, [
      'https://acme.example/news/seed-round',
      'watchlist',
      'estimated',
      'estimated',
      'estimated',
    ]);
  });

  test('a hostile name is neutralised inside the CSV', () => {
    const csv = renderSignalsCsv(
      '2026-w47',
      new Map([
        ['robotics', [{ login: 'x', rankInSector: 1, startup: startup({ name: '=cmd|"/c calc"!A1' }), metrics: {} }]],
      ]),
      new Map(),
    );
    assert.ok(csv.includes(`"'=cmd|""/c calc""!A1"`));
  });

  test('a period with no startups gives the header line alone', () => {
    const csv = renderSignalsCsv('2026-w47', new Map(), new Map());
    assert.equal(csv, `${CSV_COLUMNS_LINE}\r\n`);
  });

  test('a long file is rendered in steps of a few thousand rows, with one header, into the same bytes', () => {
    const rows = CSV_ROWS_PER_STEP * 2 + 5;
    const list = Array.from({ length: rows }, (_, i) => ({
      login: `s${i}`,
      rankInSector: i + 1,
      startup: startup({ name: `Startup ${i}`, description: i % 2 ? 'with, comma' : 'plain' }),
      metrics: {},
    }));
    const bySector = new Map([['robotics' as const, list]]);
    const steps = renderSignalsCsvInSteps('2026-w47', bySector, new Map());
    let yields = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yields++;
    assert.equal(yields, 2, 'one step per full chunk of rows');
    const whole = next.value.join('');
    assert.equal(whole, renderSignalsCsv('2026-w47', bySector, new Map()));
    const lines = whole.split('\r\n');
    assert.equal(lines.filter((l) => l.startsWith('period,')).length, 1);
    assert.equal(lines.length, rows + 2, 'the header, a line per startup, and the empty string after the last CRLF');
    assert.ok(lines[CSV_ROWS_PER_STEP + 1]!.includes(`,Startup ${CSV_ROWS_PER_STEP},`));
  });
});
