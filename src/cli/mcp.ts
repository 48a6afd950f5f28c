#!/usr/bin/env node
import { runStdioServer } from '../agents/mcp/stdio.js';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';

/**
 * `signal-mcp`: the Signal Service as an MCP server over stdio, for MCP clients that launch a command. Serves the
 * embedded data by default, or proxies SIGNAL_BASE_URL; get_deep_signal uses SIGNAL_API_KEY. stdout carries only
 * protocol messages, so every log line goes to stderr.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.server, 'signal-mcp');
  const session = await runStdioServer(config, logger);
  const stop = () => void session.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await session.closed;
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(
    err instanceof ConfigError ? `${err.message}\n` : `signal-mcp: ${(err as Error).stack ?? String(err)}\n`,
  );
  process.exit(err instanceof ConfigError ? 2 : 1);
});
