import type { Migration, MigrationProvider } from 'kysely';
import { migration as m0001 } from './0001_periods.js';
import { migration as m0002 } from './0002_pipeline.js';
import { migration as m0003 } from './0003_accounts.js';
import { migration as m0004 } from './0004_payments.js';
import { migration as m0005 } from './0005_scout.js';
import { migration as m0006 } from './0006_evidence.js';
import { migration as m0007 } from './0007_x402_reconcile.js';
import { migration as m0008 } from './0008_credit_holds.js';
import { migration as m0009 } from './0009_alerts.js';
import { migration as m0010 } from './0010_collection.js';
import { migration as m0011 } from './0011_a2a_tasks.js';

/**
 * Versioned migrations, applied in name order at start by Kysely's Migrator (which takes a lock, so several
 * instances starting at once apply each migration exactly once). Add a file and a line here; never edit an applied
 * migration.
 */
const migrations: Record<string, Migration> = {
  '0001_periods': m0001,
  '0002_pipeline': m0002,
  '0003_accounts': m0003,
  '0004_payments': m0004,
  '0005_scout': m0005,
  '0006_evidence': m0006,
  '0007_x402_reconcile': m0007,
  '0008_credit_holds': m0008,
  '0009_alerts': m0009,
  '0010_collection': m0010,
  '0011_a2a_tasks': m0011,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
