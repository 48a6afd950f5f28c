import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { findKey, issueKey, listKeys, revokeKey } from '../payments/keys.js';
import { grantCredits, MAX_GRANT } from '../payments/ledger.js';
import { withMigratedStore } from '../app.js';
import type { Store } from '../store/database.js';

/**
 * `signal-service keys …`: issue, list, revoke and top up credit-pack keys. Like `pipeline run`, a command opens the
 * configured database; with the embedded one it connects to a running server's database through its socket (or
 * hosts it for its own lifetime when no server runs), so a key created here works on the server at once.
 * `keys create` prints the new key alone on the last line of stdout (the only time it is ever shown).
 */

const out = (line = '') => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stderr.write(`${line}\n`);

function credits(allowZero: boolean) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n > MAX_GRANT || (!allowZero && n < 1)) {
      throw new InvalidArgumentError(`must be a whole number from ${allowZero ? 0 : 1} to ${MAX_GRANT}`);
    }
    return n;
  };
}

function email(value: string): string {
  const parsed = z.email().max(254).safeParse(value.trim());
  if (!parsed.success) throw new InvalidArgumentError('must be an e-mail address');
  return parsed.data;
}

function label(value: string): string {
  const text = value.trim();
  if (text.length < 1 || text.length > 100 || /[\u0000-\u001f\u007f]/.test(text)) {
    throw new InvalidArgumentError('must be 1 to 100 printable characters');
  }
  return text;
}

/** The configured store, migrated, for one command (two connections: a running server may hold the rest). */
function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  return withMigratedStore(loadConfig().database, 2, work);
}

const date = (d: Date | null) => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description('Credit-pack keys: create, list, revoke, grant credits.');

  keys
    .command('create')
    .description('Create an account with a new key and its credits; prints the key alone on the last line.')
    .requiredOption('--credits <n>', 'opening credits (0 or more)', credits(true))
    .option('--email <address>', 'the buyer’s e-mail address', email)
    .option('--label <text>', 'a note to recognise the key by in `keys list`', label)
    .action(async (options: { credits: number; email?: string; label?: string }) => {
      await withStore(async (store) => {
        const created = await issueKey(store.db, {
          credits: options.credits,
          email: options.email ?? null,
          label: options.label ?? null,
          reason: 'cli',
        });
        note('Store this key now: it is shown only this once (only its hash is kept).');
        out(`id: ${created.id}`);
        out(`account: ${created.accountId}`);
        out(`fingerprint: ${created.fingerprint}`);
        out(`balance: ${created.balance}`);
        out(created.key);
      });
    });

  keys
    .command('list')
    .description('Every key with its fingerprint and credit state (no secret is stored, so none is shown).')
    .action(async () => {
      await withStore(async (store) => {
        const listing = await listKeys(store.db);
        if (listing.length === 0) {
          out('No keys yet. Create one with `signal-service keys create --credits N`.');
          return;
        }
        const rows = [
          ['ID', 'ACCOUNT', 'FINGERPRINT', 'BALANCE', 'PURCHASED', 'CONSUMED', 'CREATED', 'REVOKED', 'LABEL', 'EMAIL'],
          ...listing.map((k) => [
            k.id,
            k.accountId,
            k.fingerprint,
            String(k.balance),
            String(k.purchased),
            String(k.consumed),
            date(k.createdAt),
            date(k.revokedAt),
            k.label ?? '-',
            k.email ?? '-',
          ]),
        ];
        for (const line of table(rows)) out(line);
      });
    });

  keys
    .command('revoke')
    .description('Revoke a key at once, on every server (its account and credits stay).')
    .argument('<id>', 'the key id, as `keys list` shows it')
    .action(async (id: string) => {
      await withStore(async (store) => {
        const outcome = await revokeKey(store.db, id);
        if (outcome === 'unknown') {
          note(`No key ${id}.`);
          process.exitCode = 1;
          return;
        }
        out(outcome === 'revoked' ? `Revoked ${id}.` : `${id} was already revoked.`);
      });
    });

  keys
    .command('grant')
    .description('Add credits to the account of a key.')
    .argument('<id>', 'the key id, as `keys list` shows it')
    .requiredOption('--credits <n>', 'credits to add (1 or more)', credits(false))
    .action(async (id: string, options: { credits: number }) => {
      await withStore(async (store) => {
        const key = await findKey(store.db, id);
        if (!key || key.revokedAt) {
          note(key ? `${id} is revoked; create a new key instead.` : `No key ${id}.`);
          process.exitCode = 1;
          return;
        }
        const balance = await grantCredits(store.db, key.accountId, options.credits, 'cli');
        out(`Granted ${options.credits} credits to ${id} (account ${key.accountId}); balance ${balance}.`);
      });
    });
}
