import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';
import {
  DatabaseNotAnsweringError,
  isDatabaseUnavailable,
  openStore,
  poolConfig,
  servingStoreOptions,
} from '../../src/store/database.js';
import { loadConfig } from '../../src/config.js';

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

describe('a PostgreSQL that accepts connections and never answers (frozen)', () => {
  test('queries fail as unavailable once the health check misses, instead of waiting for the connect and statement timeouts', async () => {
    // The network boundary of a frozen server: connections are accepted, nothing is ever answered.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as net.AddressInfo;
    const store = await openStore({
      dataDir: '/tmp',
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      poolSize: 2,
      statementTimeoutMs: 600_000,
      connectTimeoutMs: 600_000,
      healthTimeoutMs: 200,
    });
    try {
      const err = await store.ping().then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof DatabaseNotAnsweringError, String(err));
      assert.ok(store.isUnavailable(err));
      // While it stays silent, new queries fail before they are sent.
      await assert.rejects(store.ping(), DatabaseNotAnsweringError);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      await store.close();
    }
  });
});

describe('the pool of a serving process', () => {
  const base = { dataDir: '/unused', databaseUrl: 'postgres://127.0.0.1:5432/test' };

  test('keeps a connection open while it is idle, without keeping the process alive', () => {
    const config = poolConfig({ ...base, keepIdleConnections: true }, {});
    assert.equal(config.idleTimeoutMillis, 0);
    assert.equal(config.allowExitOnIdle, true);
  });

  test('is the one the serving process opens: the watchdog on, idle connections kept', () => {
    const { database } = loadConfig({ DATABASE_URL: base.databaseUrl });
    const options = servingStoreOptions(database);
    assert.equal(options.healthTimeoutMs, database.healthTimeoutMs);
    assert.equal(poolConfig(options, {}).idleTimeoutMillis, 0);
  });

  test('a batch command keeps the driver default, closing a connection idle for 10 s', () => {
    const config = poolConfig(base, {});
    assert.equal(config.idleTimeoutMillis, undefined);
    assert.equal(config.allowExitOnIdle, undefined);
  });
});
