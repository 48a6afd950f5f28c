import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import { problemResponse } from '../../src/http/problem.js';

describe('a service error as problem+json', () => {
  test('the body has type, title, status, detail and instance, then the extension members', () => {
    const error = ServiceError.relay('not-found', 'No market named x.', { extensions: { markets: ['a'] } });
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
    assert.deepEqual(problemResponse(ServiceError.relay('internal', undefined), undefined).body, {
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
    });
  });

  test('a retry time becomes Retry-After', () => {
    const error = ServiceError.relay('payment-provider-unavailable', 'Later.', { retryAfterSeconds: 30 });
    assert.deepEqual(problemResponse(error, '/x').headers, { 'retry-after': '30' });
  });

  test('a missing credit-pack key asks for Bearer without an error code', () => {
    const { status, headers } = problemResponse(ServiceError.relay('credentials-missing', 'Send a key.'), '/x');
    assert.equal(status, 401);
    assert.deepEqual(headers, { 'www-authenticate': 'Bearer realm="signal-service"' });
  });

  test('a malformed or invalid credit-pack key answers error="invalid_token"', () => {
    for (const code of ['credentials-malformed', 'credentials-invalid'] as const) {
      assert.deepEqual(problemResponse(ServiceError.relay(code, 'No.'), '/x').headers, {
        'www-authenticate': 'Bearer realm="signal-service", error="invalid_token"',
      });
    }
  });

  test('a wrong method answers Allow with the methods the path has', () => {
    const error = new ServiceError('wrong-method', { path: '/x', allow: 'GET, OPTIONS' }, { allow: 'GET, OPTIONS' });
    const response = problemResponse(error, '/x');
    assert.deepEqual(
      [response.status, response.body.title, response.body.detail, response.headers],
      [405, 'Method Not Allowed', '/x answers GET, OPTIONS.', { allow: 'GET, OPTIONS' }],
    );
  });

  test('a refused metrics token asks for Bearer in the metrics realm', () => {
    const response = problemResponse(new ServiceError('metrics-token-required'), '/metrics');
    assert.deepEqual([response.status, response.headers], [401, { 'www-authenticate': 'Bearer realm="metrics"' }]);
  });
});
