#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { tuneV8ForServing } from '../runtime/heap.js';
import { settleTickObjectShape } from '../runtime/tick-shape.js';
import { createStore, servingStoreOptions } from '../store/database.js';

const program = new Command()
  .name('signal-service')
  .description('Startup engineering-acceleration signals from public code-hosting activity.')
  .showHelpAfterError();

program
  .command('serve')
  .description('Serve the API (configuration from the environment; see the README).')
  .action(async () => {
    tuneV8ForServing();
    void settleTickObjectShape();
    const config = loadConfig();
    const logger = createLogger(config.server);
    // Open the store first: the embedded database's host process starts while this one loads the server's code.
    const opening = createStore(servingStoreOptions(config.database));
    opening.ready.catch(() => {}); // awaited (and reported) by startService
    const { startService } = await import('../service.js');
    const service = await startService(config, logger, { opening });
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down: finishing in-flight requests');
      service.close().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });

// The pipeline's and keys' code (GitHub client, queue, progress bars, payments) is loaded only when one may run, not
// by `serve`.
if (process.argv[2] !== 'serve') {
  (await import('./pipeline.js')).registerPipelineCommands(program);
  (await import('./keys.js')).registerKeysCommands(program);
  (await import('./backtest.js')).registerBacktestCommand(program);
}

program.parseAsync().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`signal-service: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
