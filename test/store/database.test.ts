import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/store/database.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('telling "the database is down" from "the query is wrong"', () => {
  test('refused, reset and timed-out connections are unavailability', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'])
      assert.ok(isDatabaseUnavailable(withCode(code)), code);
  });

  test('pool and connection messages of the pg driver are unavailability', () => {
    for (const message of [
      'timeout exceeded when trying to connect',
      'Connection terminated unexpectedly',
      'Query read timeout',
      'Client has encountered a connection error and is not queryable',
    ])
      assert.ok(isDatabaseUnavailable(new Error(message)), message);
  });

  test('SQLSTATE connection exceptions, shutdown, statement timeout and too many connections are unavailability', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '57014', '53300'])
      assert.ok(isDatabaseUnavailable(withCode(code)), code);
  });

  test('an AggregateError of refused connections is unavailability', () => {
    assert.ok(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], 'x')));
  });

  test('query errors (syntax, constraint, missing table) are not', () => {
    for (const code of ['42601', '23505', '42P01']) assert.equal(isDatabaseUnavailable(withCode(code)), false, code);
    assert.equal(isDatabaseUnavailable(new Error('something else')), false);
    assert.equal(isDatabaseUnavailable(undefined), false);
  });
});
