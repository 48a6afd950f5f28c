import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { discoverCandidates } from '../../../src/pipeline/collect/discover.js';
import type { GitHubClient } from '../../../src/github/client.js';
import { FakeGitHub, type FakeOrg, type FakeRepo, fakeClient } from '../../helpers/fake-github.js';

function repo(name: string, topics: string[], extra: Partial<FakeRepo> = {}): FakeRepo {
  return { name, topics, createdAt: '2025-01-01T00:00:00Z', commits: [], ...extra };
}

describe('discovery of candidate organisations from topics', () => {
  let fake: FakeGitHub;
  let client: GitHubClient;
  before(async () => {
    const orgs: FakeOrg[] = [
      {
        login: 'clinic-soft',
        name: 'Clinic Soft',
        blog: 'clinic.example',
        repos: [repo('ehr-api', ['fhir']), repo('app', ['fhir'])],
      },
      { login: 'tracked-co', name: 'Tracked', repos: [repo('fhir-kit', ['fhir'])] },
      { login: 'health-foundation', name: 'Open Health Foundation', repos: [repo('spec', ['fhir'])] },
      {
        login: 'bigcorp',
        name: 'Big Corp',
        repos: [repo('fhir-sdk', ['fhir']), ...Array.from({ length: 160 }, (_, i) => repo(`r${i}`, []))],
      },
      { login: 'release-bot', name: 'Release Bot', repos: [repo('fhir-bot', ['fhir'])] },
      { login: 'mirror-co', name: 'Mirror', repos: [repo('fhir-fork', ['fhir'], { fork: true })] },
      {
        login: 'mixed-co',
        name: 'Mixed',
        repos: [repo('fhir-one', ['fhir']), repo('lms-a', ['lms']), repo('lms-b', ['lms'])],
      },
    ];
    fake = await FakeGitHub.start({ orgs });
    client = fakeClient(fake, { concurrency: 2 });
  });
  after(() => fake.close());

  test('candidates exclude tracked, bots, foundations and large companies, and each sits in one sector', async () => {
    const result = await discoverCandidates(client, {
      sectors: ['healthcare', 'edtech'],
      tracked: new Set(['tracked-co']),
      pagesPerTopic: 2,
      perSector: 10,
      orgsPerQuery: 5,
    });
    assert.deepEqual(
      result.candidates.map((c) => [c.entry.login, c.entry.sector, c.matchedRepos]),
      [
        ['clinic-soft', 'healthcare', 2],
        ['mixed-co', 'edtech', 2],
      ],
    );
    assert.equal(result.candidates[0]!.entry.website, 'https://clinic.example/');
    assert.deepEqual(result.excluded.map((e) => [e.login, e.reason]).sort(), [
      ['bigcorp', 'large'],
      ['health-foundation', 'foundation'],
      ['release-bot', 'bot'],
      ['tracked-co', 'tracked'],
    ]);
    // The fork-only organisation never shows up: the search asks for fork:false.
    assert.ok(!JSON.stringify(result).includes('mirror-co'));
  });
});
