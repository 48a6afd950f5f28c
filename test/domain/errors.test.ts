import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  codeForStatus,
  ERROR_CODES,
  fail,
  SERVICE_ERRORS,
  ServiceError,
  statusTitle,
  succeed,
  type ErrorCode,
  type ServiceErrorId,
} from '../../src/domain/errors.js';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];
const ids = Object.keys(SERVICE_ERRORS) as ServiceErrorId[];
const kebab = /^[a-z]+(-[a-z]+)*$/;

describe('the error codes', () => {
  test('every code is lower-case words joined by hyphens', () => {
    for (const code of codes) assert.match(code, kebab, code);
  });

  test('every code has an error status (4xx or 5xx) and a title', () => {
    for (const code of codes) {
      const { status, title } = ERROR_CODES[code];
      assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, code);
      assert.ok(title.length > 0, code);
    }
  });

  test('codes of one status share its title (a problem title depends on the status only)', () => {
    for (const code of codes) assert.equal(ERROR_CODES[code].title, statusTitle(ERROR_CODES[code].status), code);
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
        ).map((code) => [code, ERROR_CODES[code].status]),
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

describe('the error catalogue', () => {
  // Ids and codes are the keys of object literals: a repeated one does not compile (TS1117), so each is unique.
  test('every entry id is lower-case words or numbers joined by hyphens', () => {
    for (const id of ids) assert.match(id, /^[a-z0-9]+(-[a-z0-9]+)*$/, id);
  });

  test("every entry has a catalogued code, that code's 4xx or 5xx status and title, and a message template", () => {
    for (const id of ids) {
      const { code, status, title, message } = SERVICE_ERRORS[id];
      assert.ok(code in ERROR_CODES, id);
      assert.deepEqual({ status, title }, ERROR_CODES[code], id);
      assert.ok(status >= 400 && status <= 599, id);
      assert.equal(typeof message, 'function', id);
    }
  });

  test('an entry whose template takes no values writes a non-empty message', () => {
    for (const id of ids) {
      const message = SERVICE_ERRORS[id].message as (values?: unknown) => string;
      if (message.length === 0) assert.ok(message().length > 0, id);
    }
  });

  test('no two entries of one code write the same fixed message (one condition, one entry)', () => {
    const fixed = ids
      .filter((id) => SERVICE_ERRORS[id].message.length === 0)
      .map((id) => `${SERVICE_ERRORS[id].code} ${(SERVICE_ERRORS[id].message as () => string)()}`);
    assert.equal(new Set(fixed).size, fixed.length);
  });

  test('a template writes its message from the values', () => {
    assert.equal(
      SERVICE_ERRORS['unknown-tool'].message({ name: 'x'.repeat(200) }),
      `No tool named "${'x'.repeat(100)}".`,
    );
    assert.equal(
      SERVICE_ERRORS['period-not-stored'].message({ slug: '2020-w01', stored: ['2026-w01', '2026-w02'] }),
      'No stored period "2020-w01": 2 periods are stored, from 2026-w01 to 2026-w02 (list_periods names them).',
    );
  });
});

describe('ServiceError', () => {
  test('takes its code, status, title and detail from its catalogue entry', () => {
    const error = new ServiceError('unknown-tool', { name: 'nope' });
    assert.deepEqual(
      [error.id, error.code, error.status, error.title, error.detail, error.message],
      ['unknown-tool', 'unknown-tool', 404, 'Not Found', 'No tool named "nope".', 'No tool named "nope".'],
    );
  });

  test('an entry may share its code with others', () => {
    const error = new ServiceError('alert-feed-not-found');
    assert.deepEqual([error.id, error.code, error.status], ['alert-feed-not-found', 'not-found', 404]);
  });

  test('carries extension members, a retry time and allowed methods', () => {
    const error = new ServiceError('unknown-market', {}, { extensions: { markets: [] }, retryAfterSeconds: 30 });
    assert.deepEqual(error.extensions, { markets: [] });
    assert.equal(error.retryAfterSeconds, 30);
    assert.equal(new ServiceError('mcp-stateless', {}, { allow: 'POST' }).allow, 'POST');
  });

  test('without options has no extension members and no retry time', () => {
    const error = new ServiceError('no-period-loaded');
    assert.deepEqual([error.extensions, error.retryAfterSeconds], [{}, undefined]);
  });

  test('a relayed error keeps the text it came with, under the code given', () => {
    const error = ServiceError.relay('payment-required', 'Pay first.');
    assert.deepEqual(
      [error.id, error.code, error.status, error.title, error.detail],
      [undefined, 'payment-required', 402, 'Payment Required', 'Pay first.'],
    );
    assert.equal(ServiceError.relay('internal', undefined).detail, undefined);
  });

  test("a remote problem keeps the remote's status and detail, or names the remote", () => {
    const relayed = ServiceError.remote({ status: 429, baseUrl: 'https://r.test', detail: 'Slow down.' });
    assert.deepEqual([relayed.code, relayed.status, relayed.detail], ['rate-limited', 429, 'Slow down.']);
    const bare = ServiceError.remote({ status: 502, baseUrl: 'https://r.test', detail: undefined });
    assert.equal(bare.detail, 'https://r.test answered 502.');
  });

  test('with more extensions keeps its entry, detail and retry time', () => {
    const error = new ServiceError('insufficient-credits', {}, { retryAfterSeconds: 3 }).withExtensions({ balance: 0 });
    assert.deepEqual(
      [error.id, error.code, error.detail, error.extensions, error.retryAfterSeconds],
      [
        'insufficient-credits',
        'insufficient-credits',
        SERVICE_ERRORS['insufficient-credits'].message(),
        { balance: 0 },
        3,
      ],
    );
  });

  test('is an Error', () => {
    assert.ok(new ServiceError('unexpected') instanceof Error);
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
    const error = new ServiceError('no-period-loaded');
    assert.deepEqual(succeed(1), { ok: true, value: 1 });
    assert.deepEqual(fail(error), { ok: false, error });
  });
});
