import { ChangelogContent, type Changelog } from '../../schemas/documents.js';
import type { PeriodInfo } from '../../snapshot/snapshot.js';
import { DocumentContentError, readYamlContent } from './content.js';
import { DATA_LICENSE, INTERFACE_REVISION_DATE, INTERFACE_VERSION } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The changelog joins two sources: the human-written interface release log (content/changelog.yaml) and the data
 * periods read from the store. Nothing about periods is typed in.
 */
export const CHANGELOG_FILE = 'changelog.yaml';

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** Checks the release log beyond its schema: newest first, unique versions, newest = the interface we serve. */
export function checkReleaseLog(log: ChangelogContent, where = CHANGELOG_FILE): ChangelogContent {
  log.releases.forEach((release, i) => {
    const older = log.releases[i + 1];
    if (older && compareVersions(release.version, older.version) <= 0) {
      throw new DocumentContentError(
        where,
        `releases must be listed newest first with unique versions (${release.version} before ${older.version})`,
      );
    }
    if (older && release.date < older.date) {
      throw new DocumentContentError(where, `release ${release.version} is dated before ${older.version}`);
    }
  });
  const newest = log.releases[0]!;
  if (newest.version !== INTERFACE_VERSION || newest.date !== INTERFACE_REVISION_DATE) {
    throw new DocumentContentError(
      where,
      `the newest release must be ${INTERFACE_VERSION} dated ${INTERFACE_REVISION_DATE} (the interface this service implements), not ${newest.version} dated ${newest.date}`,
    );
  }
  return log;
}

export function readReleaseLog(dir: string): ChangelogContent {
  return checkReleaseLog(readYamlContent(dir, CHANGELOG_FILE, ChangelogContent));
}

export function buildChangelog(log: ChangelogContent, periods: readonly PeriodInfo[], baseUrl: string): Changelog {
  const urls = siteUrls(baseUrl);
  const newestFirst = [...periods].reverse();
  const newestPublication = periods.reduce<Date | undefined>(
    (latest, p) => (!latest || p.publishedAt > latest ? p.publishedAt : latest),
    undefined,
  );
  const releaseDate = new Date(`${log.releases[0]!.date}T00:00:00Z`);
  const lastModified = newestPublication && newestPublication > releaseDate ? newestPublication : releaseDate;
  return {
    name: 'Signal Service changelog',
    url: urls.api('/api/changelog.json'),
    interfaceVersion: INTERFACE_VERSION,
    revisionDate: INTERFACE_REVISION_DATE,
    license: DATA_LICENSE.url,
    lastModified: lastModified.toISOString(),
    releases: log.releases.map((r) => ({ version: r.version, date: r.date, title: r.title, changes: [...r.changes] })),
    periods: newestFirst.map((p) => ({
      slug: p.slug,
      name: p.name,
      dataset: p.dataset,
      datasetName: p.datasetName,
      startupsTracked: p.startupsTracked,
      publishedAt: p.publishedAt.toISOString(),
      url: urls.period(p.slug),
    })),
  };
}
