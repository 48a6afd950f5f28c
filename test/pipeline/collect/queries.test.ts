import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validate } from '@octokit/graphql-schema';
import { moreHistoryQuery, moreReposQuery, orgDetailsQuery, orgsQuery } from '../../../src/pipeline/collect/queries.js';
import { graphqlCost } from '../../helpers/fake-github.js';

describe('collector GraphQL documents', () => {
  const documents = {
    CollectOrgs: orgsQuery(5),
    MoreRepos: moreReposQuery(5),
    MoreHistory: moreHistoryQuery(10),
    OrgDetails: orgDetailsQuery(5),
  };

  for (const [name, query] of Object.entries(documents)) {
    test(`${name} is valid against GitHub's published GraphQL schema`, () => {
      assert.deepEqual(
        validate(query).map((e) => e.message),
        [],
      );
    });
  }

  test('the first page with evidence for 5 organisations costs 9 points: 5 × (1 + 30 × 6 connections) / 100', () => {
    const variables = { since: '2026-02-02T00:00:00Z', until: '2026-03-09T06:00:00Z', withHistory: true };
    assert.equal(graphqlCost(orgsQuery(5), variables), 9);
  });

  test('repositories read without history cost one request per organisation, evidence included', () => {
    const variables = { since: '2026-02-02T00:00:00Z', until: '2026-03-09T06:00:00Z', withHistory: false };
    assert.equal(graphqlCost(moreReposQuery(5), variables), 1);
  });
});
