import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import { HttpProblem, notFound, problemResponse, unavailable } from '../../src/http/problem.js';

describe('a service error as problem+json', () => {
  test('the body has type, title, status, detail and instance, then the extension members', () => {
    const error = new ServiceError('not-found', 'No market named x.', { extensions: { markets: ['a'] } });
    assert.deepEqual(problemResponse(error, '/api/markets/x'), {
      status: 404,
      headers: {},
      body: {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'No market named x.',
        instance: '/api/markets/x',
        markets: ['a'],
      },
    });
  });

  test('a missing detail or instance is left out of the body', () => {
    assert.deepEqual(problemResponse(new ServiceError('internal'), undefined).body, {
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
    });
  });

  test('a retry time becomes Retry-After', () => {
    const error = new ServiceError('payment-provider-unavailable', 'Later.', { retryAfterSeconds: 30 });
    assert.deepEqual(problemResponse(error, '/x').headers, { 'retry-after': '30' });
  });

  test('a missing credit-pack key asks for Bearer without an error code', () => {
    const { status, headers } = problemResponse(new ServiceError('credentials-missing', 'Send a key.'), '/x');
    assert.equal(status, 401);
    assert.deepEqual(headers, { 'www-authenticate': 'Bearer realm="signal-service"' });
  });

  test('a malformed or invalid credit-pack key answers error="invalid_token"', () => {
    for (const code of ['credentials-malformed', 'credentials-invalid'] as const) {
      assert.deepEqual(problemResponse(new ServiceError(code, 'No.'), '/x').headers, {
        'www-authenticate': 'Bearer realm="signal-service", error="invalid_token"',
      });
    }
  });

  test('an HTTP-only problem keeps its status, title and headers', () => {
    const problem = new HttpProblem(405, 'Method Not Allowed', '/x answers GET.', {}, { allow: 'GET, OPTIONS' });
    const response = problemResponse(problem, '/x');
    assert.deepEqual(
      [response.status, response.body.title, response.headers],
      [405, 'Method Not Allowed', { allow: 'GET, OPTIONS' }],
    );
    assert.equal(problem.code, 'method-not-allowed');
  });

  test('notFound and unavailable are catalogue errors (503 with Retry-After 30 by default)', () => {
    assert.equal(notFound('gone').code, 'not-found');
    const down = unavailable('later');
    assert.deepEqual([down.code, problemResponse(down, '/x').headers], ['unavailable', { 'retry-after': '30' }]);
  });
});
