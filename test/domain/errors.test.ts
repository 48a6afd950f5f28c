import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  codeForStatus,
  fail,
  SERVICE_ERRORS,
  ServiceError,
  statusTitle,
  succeed,
  type ServiceErrorCode,
} from '../../src/domain/errors.js';

const codes = Object.keys(SERVICE_ERRORS) as ServiceErrorCode[];

describe('the service error catalogue', () => {
  test('every code is lower-case words joined by hyphens', () => {
    for (const code of codes) assert.match(code, /^[a-z]+(-[a-z]+)*$/, code);
  });

  test('every entry has an error status and a title', () => {
    for (const code of codes) {
      const { status, title } = SERVICE_ERRORS[code];
      assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, code);
      assert.ok(title.length > 0, code);
    }
  });

  test('entries of one status share its title (a problem title depends on the status only)', () => {
    for (const code of codes) {
      assert.equal(SERVICE_ERRORS[code].title, statusTitle(SERVICE_ERRORS[code].status), code);
    }
  });

  test('the named conditions have the statuses the interface gives them', () => {
    assert.deepEqual(
      Object.fromEntries(
        (
          [
            'credentials-missing',
            'credentials-malformed',
            'credentials-invalid',
            'insufficient-credits',
            'payment-not-confirmed',
            'already-redeemed',
            'payment-rejected',
            'rate-limited',
            'payment-provider-unavailable',
          ] as const
        ).map((code) => [code, SERVICE_ERRORS[code].status]),
      ),
      {
        'credentials-missing': 401,
        'credentials-malformed': 401,
        'credentials-invalid': 401,
        'insufficient-credits': 402,
        'payment-not-confirmed': 402,
        'already-redeemed': 409,
        'payment-rejected': 422,
        'rate-limited': 429,
        'payment-provider-unavailable': 503,
      },
    );
  });
});

describe('ServiceError', () => {
  test('takes its status and title from the catalogue entry of its code', () => {
    const error = new ServiceError('insufficient-credits', 'No credit left.');
    assert.deepEqual(
      [error.code, error.status, error.title, error.detail, error.message],
      ['insufficient-credits', 402, 'Payment Required', 'No credit left.', 'No credit left.'],
    );
  });

  test('carries extension members and a retry time', () => {
    const error = new ServiceError('unavailable', 'Later.', { extensions: { markets: [] }, retryAfterSeconds: 30 });
    assert.deepEqual(error.extensions, { markets: [] });
    assert.equal(error.retryAfterSeconds, 30);
  });

  test('without options has no extension members and no retry time', () => {
    const error = new ServiceError('not-found');
    assert.deepEqual([error.extensions, error.retryAfterSeconds, error.detail], [{}, undefined, undefined]);
  });

  test('is an Error', () => {
    assert.ok(new ServiceError('internal') instanceof Error);
  });
});

describe('errors known only by their status', () => {
  test('a catalogued status maps to its generic code', () => {
    assert.deepEqual([400, 401, 402, 404, 409, 422, 429, 500, 502, 503].map(codeForStatus), [
      'bad-request',
      'unauthorized',
      'payment-required',
      'not-found',
      'conflict',
      'unprocessable',
      'rate-limited',
      'internal',
      'bad-gateway',
      'unavailable',
    ]);
  });

  test('an uncatalogued status falls back to bad-request or internal', () => {
    assert.deepEqual([codeForStatus(418), codeForStatus(507)], ['bad-request', 'internal']);
  });

  test('an uncatalogued status has a generic title', () => {
    assert.deepEqual([statusTitle(418), statusTitle(507)], ['Client Error', 'Server Error']);
  });
});

describe('outcomes', () => {
  test('succeed holds a value, fail a service error', () => {
    const error = new ServiceError('not-found');
    assert.deepEqual(succeed(1), { ok: true, value: 1 });
    assert.deepEqual(fail(error), { ok: false, error });
  });
});
