import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evidenceDetails } from '../../src/domain/evidence-links.js';

const metrics = {
  evidence: {
    people: [
      {
        login: 'ada',
        kind: 'new',
        regular: true,
        firstCommit: '2026-03-02',
        commits: 7,
        activeDays: 4,
        lastSeenBefore: null,
      },
      {
        login: null,
        kind: 'new',
        regular: false,
        firstCommit: '2026-03-03',
        commits: 1,
        activeDays: 1,
        lastSeenBefore: null,
      },
    ],
    deployEvents: [
      { repo: 'app', kind: 'release', name: 'v1.2.0', date: '2026-03-05' },
      { repo: 'app', kind: 'tag', name: 'web@2.0 beta', date: '2026-03-04' },
    ],
    newRepoNames: ['helm-charts'],
    activeRepos: [
      { repo: 'app', commits: 40, commitsPrior: 12 },
      { repo: 'docs site', commits: 3, commitsPrior: 0 },
    ],
    infraPaths: ['app:deploy/k8s/api.yaml'],
    languageMove: { from: 'JavaScript', to: 'TypeScript', files: 40 },
    frameworkSwaps: [{ kind: 'bundler', from: 'webpack', to: 'Vite' }],
  },
};

describe('evidence details', () => {
  test('a person links to their public GitHub profile, an unlinked author to nothing', () => {
    const d = evidenceDetails('https://github.com/acme', metrics);
    assert.deepEqual(
      d.people.map((p) => [p.login, p.url]),
      [
        ['ada', 'https://github.com/ada'],
        [null, null],
      ],
    );
  });

  test('releases link to their release page and tags to their tree, names escaped', () => {
    const d = evidenceDetails('https://github.com/acme', metrics);
    assert.deepEqual(
      d.events.map((e) => e.url),
      ['https://github.com/acme/app/releases/tag/v1.2.0', 'https://github.com/acme/app/tree/web%402.0%20beta'],
    );
  });

  test('new repositories and infrastructure paths link into the organisation', () => {
    const d = evidenceDetails('https://github.com/acme/', metrics);
    assert.deepEqual(d.newRepositories, [{ name: 'helm-charts', url: 'https://github.com/acme/helm-charts' }]);
    assert.deepEqual(d.infrastructurePaths, [
      { repo: 'app', path: 'deploy/k8s/api.yaml', url: 'https://github.com/acme/app/blob/HEAD/deploy/k8s/api.yaml' },
    ]);
  });

  test('the repositories carrying the work link into the organisation, with their commits in both windows', () => {
    const d = evidenceDetails('https://github.com/acme', metrics);
    assert.deepEqual(d.repositories, [
      { name: 'app', url: 'https://github.com/acme/app', commits: 40, commitsPrior: 12 },
      { name: 'docs site', url: 'https://github.com/acme/docs%20site', commits: 3, commitsPrior: 0 },
    ]);
  });

  test('a record without recorded evidence gives empty lists', () => {
    assert.deepEqual(evidenceDetails('https://github.com/acme', {}), {
      people: [],
      events: [],
      newRepositories: [],
      repositories: [],
      infrastructurePaths: [],
      languageMove: null,
      frameworksReplaced: [],
    });
  });
});
