import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AlertsConfig, Config } from '../../config.js';
import { systemResolver, type AddressPolicy, type Resolver } from './address-guard.js';

const SECRET_FILE = 'alerts.secret';

/**
 * The alerts secret: ALERTS_SECRET, or with the embedded database one generated once into DATA_DIR (mode 0600, beside
 * the database but not in it, so a copy of the tables alone opens no webhook secret). With PostgreSQL and no
 * ALERTS_SECRET: undefined (alerts are off), since instances on other machines could not share a generated one.
 */
export function alertsSecret(config: Pick<Config, 'alerts' | 'database'>): string | undefined {
  if (config.alerts.secret) return config.alerts.secret;
  if (config.database.url) return undefined;
  const file = path.join(config.database.dataDir, SECRET_FILE);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(config.database.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process wrote it first
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export function alertsPolicy(
  config: Pick<AlertsConfig, 'allowPrivateWebhooks'>,
  resolve: Resolver = systemResolver,
): AddressPolicy {
  return { allowPrivate: config.allowPrivateWebhooks, resolve };
}
