#!/usr/bin/env -S node --max-semi-space-size=64
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startService } from '../service.js';
import { registerPipelineCommands } from './pipeline.js';
import { registerKeysCommands } from './keys.js';

const program = new Command()
  .name('signal-service')
  .description('Startup engineering-acceleration signals from public code-hosting activity.')
  .showHelpAfterError();

program
  .command('serve')
  .description('Serve the API (configuration from the environment; see the README).')
  .action(async () => {
    const config = loadConfig();
    const logger = createLogger(config);
    const service = await startService(config, logger);
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

registerPipelineCommands(program);
registerKeysCommands(program);

program.parseAsync().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`signal-service: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
