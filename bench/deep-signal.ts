/**
 * Charged Deep Signal calls per second on PostgreSQL: the real service (a child process, as `npm start` runs it) on
 * a fresh database, 100 concurrent clients (autocannon, 100 connections, no pipelining) each paying with its own
 * credit-pack key, rotating over every tracked startup. Afterwards the ledger is checked: the charges it holds must
 * equal the 2xx answers counted by the client, and every account's balance must equal grants − charges.
 * PostgreSQL: BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres (a database
 * is created there and dropped afterwards). Goal: ≥ 3,000 charged calls/s on the 2-core machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { issueKey } from '../src/payments/keys.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import type { BenchResult } from './types.js';
import { freePort } from './proc.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A fixed number of calls (not a duration), so every charged call is answered and counted before the ledger check. */
const CALLS = Number(process.env.BENCH_DEEP_SIGNAL_CALLS ?? 20_000);
const CLIENTS = 100;
const CREDITS_PER_KEY = 1_000_000;
const GOAL = 3000;

function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer) => {
      if (data.toString().includes('"msg":"serving"')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
}

export async function run(): Promise<BenchResult[]> {
  const adminUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_deep_signal_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let server: ChildProcess | undefined;
  const store = await openStore({ dataDir: '/tmp', databaseUrl, poolSize: 4 });
  try {
    await migrateToLatest(store.db);
    const port = await freePort();
    server = await startServer({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    const base = `http://127.0.0.1:${port}`;
    const keys: { key: string }[] = [];
    for (let i = 0; i < CLIENTS; i++)
      keys.push(await issueKey(store.db, { credits: CREDITS_PER_KEY, reason: 'bench' }));
    const names = (
      await store.db
        .selectFrom('period_startups')
        .select('startup')
        .where(
          'period_slug',
          '=',
          sql<string>`(select slug from periods order by iso_year desc, iso_week desc limit 1)`,
        )
        .execute()
    ).map((r) => (r.startup as { name: string }).name);
    let counter = 0;
    const request = () => {
      const i = counter++;
      return {
        method: 'POST' as const,
        path: '/api/agent/deep-signal',
        headers: { authorization: `Bearer ${keys[i % CLIENTS]!.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: names[i % names.length] }),
      };
    };
    const measure = async (amount: number) => {
      const result = await autocannon({
        url: base,
        connections: CLIENTS,
        pipelining: 1,
        amount,
        requests: [{ setupRequest: (req: object) => ({ ...req, ...request() }) }],
      });
      return result;
    };
    await measure(2_000); // warm-up: JIT, history cache, connection pools
    const before = await charges(store.db);
    // Timed here: autocannon's `duration` is whole seconds, too coarse for a run of a few seconds.
    const started = performance.now();
    const result = await measure(CALLS);
    const seconds = (performance.now() - started) / 1000;
    const after = await charges(store.db);
    const charged = after.charges - before.charges;
    const ok = result['2xx'];
    const balances = after.mismatched === 0;
    return [
      {
        name: `POST /api/agent/deep-signal, PostgreSQL, ${CLIENTS} clients (own key each), ${names.length} startups`,
        metrics: {
          'charged calls/s': Math.round(charged / seconds),
          'req/s': Math.round(result.requests.total / seconds),
          'p50 ms': result.latency.p50,
          'p99 ms': result.latency.p99,
          '2xx': ok,
          'non-2xx': result.non2xx,
          errors: result.errors,
          'ledger charges': charged,
          'ledger = 2xx':
            charged === ok && balances ? 'yes' : `NO (${charged} charges, ${after.mismatched} balances off)`,
          goal: `≥ ${GOAL}/s`,
          met: charged / seconds >= GOAL ? 'yes' : 'no',
        },
      },
    ];
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await store.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Ledger charges so far, and accounts whose balance differs from their ledger's grants − charges. */
async function charges(db: Parameters<typeof migrateToLatest>[0]): Promise<{ charges: number; mismatched: number }> {
  const row = await sql<{ charges: number; mismatched: number }>`
    select (select count(*) from credit_ledger where kind = 'charge')::int as charges,
           (select count(*) from accounts a
             where a.balance <> (select coalesce(sum(delta), 0) from credit_ledger l where l.account_id = a.id)
                or a.consumed <> (select count(*) from credit_ledger l where l.account_id = a.id and kind = 'charge'))::int
             as mismatched`.execute(db);
  return row.rows[0]!;
}
