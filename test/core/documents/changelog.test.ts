import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildChangelog, checkReleaseLog, readReleaseLog } from '../../../src/core/documents/changelog.js';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { INTERFACE_REVISION_DATE, INTERFACE_VERSION } from '../../../src/domain/license.js';
import { Changelog } from '../../../src/schemas/documents.js';
import type { PeriodInfo } from '../../../src/snapshot/snapshot.js';
import { BASE } from '../fixtures.js';

const period = (slug: string, name: string, publishedAt: string, startupsTracked: number): PeriodInfo => ({
  slug,
  name,
  dataset: 'github',
  datasetName: 'GitHub activity',
  publishedAt: new Date(publishedAt),
  contentHash: `hash-${slug}`,
  startupsTracked,
});

const periods = [
  period('2026-w45', 'Week 45, 2026', '2026-11-09T06:00:00Z', 300),
  period('2026-w46', 'Week 46, 2026', '2026-11-16T06:00:00Z', 310),
];

const release = (version: string, date: string) => ({
  version,
  date,
  title: `Release ${version}`,
  changes: ['A change.'],
});

describe('changelog', () => {
  test('the shipped release log leads with the interface version and revision date', () => {
    const log = readReleaseLog(PACKAGED_CONTENT_DIR);
    assert.equal(log.releases[0]!.version, INTERFACE_VERSION);
    assert.equal(log.releases[0]!.date, INTERFACE_REVISION_DATE);
  });

  test('a release log whose newest release is not the served interface version is rejected', () => {
    assert.throws(
      () => checkReleaseLog({ releases: [release('1.3.0', '2026-01-01')] }),
      /newest release must be 1\.4\.0/,
    );
  });

  test('a release log listed oldest first is rejected', () => {
    assert.throws(
      () => checkReleaseLog({ releases: [release('1.3.0', '2026-01-01'), release('1.4.0', INTERFACE_REVISION_DATE)] }),
      /newest first/,
    );
  });

  test('periods are listed newest first with slug, startups tracked and publication time', () => {
    const doc = buildChangelog(readReleaseLog(PACKAGED_CONTENT_DIR), periods, BASE);
    assert.deepEqual(
      doc.periods.map((p) => [p.slug, p.startupsTracked, p.publishedAt]),
      [
        ['2026-w46', 310, '2026-11-16T06:00:00.000Z'],
        ['2026-w45', 300, '2026-11-09T06:00:00.000Z'],
      ],
    );
  });

  test('each period entry links its period page', () => {
    const doc = buildChangelog(readReleaseLog(PACKAGED_CONTENT_DIR), periods, BASE);
    assert.equal(doc.periods[0]!.url, `${BASE}/periods/2026-w46`);
  });

  test('lastModified is the newest period publication when it is newer than the newest release', () => {
    const doc = buildChangelog(readReleaseLog(PACKAGED_CONTENT_DIR), periods, BASE);
    assert.equal(doc.lastModified, '2026-11-16T06:00:00.000Z');
  });

  test('the changelog document matches its schema field for field', () => {
    const doc = buildChangelog(readReleaseLog(PACKAGED_CONTENT_DIR), periods, BASE);
    assert.deepEqual(Changelog.strict().parse(doc), doc);
    assert.deepEqual(Object.keys(doc.releases[0]!), ['version', 'date', 'title', 'changes']);
  });
});
