import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { createApp } from '../../app.js';
import { localInvoker, remoteInvoker, type ToolInvoker } from '../invoke.js';
import { createMcpServer } from './server.js';

export interface StdioSession {
  /** Resolves when the client closes stdin (or close() is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The data behind the stdio server: a remote deployment when SIGNAL_BASE_URL is set, otherwise the application built
 * by the composition root on the same store the HTTP server reads (the embedded database admits a second process
 * beside a running server), with the same period watcher and warm-up.
 */
async function openInvoker(config: Config, logger: Logger): Promise<{ invoke: ToolInvoker; close(): Promise<void> }> {
  const { signalBaseUrl, signalApiKey } = config.agents;
  if (signalBaseUrl) {
    logger.info({ remote: signalBaseUrl }, 'signal-mcp: proxying a remote deployment');
    return { invoke: remoteInvoker(signalBaseUrl, signalApiKey), close: async () => {} };
  }
  // A second process beside a running server: few connections, and only the period's jobs (the server runs the rest).
  const app = await createApp(config, logger, { poolSize: 2, jobs: 'period-only' });
  try {
    await app.open();
    app.warmUp();
    logger.info(
      { database: app.store.mode, period: app.holder.current?.period.slug },
      'signal-mcp: serving local data',
    );
    return { invoke: localInvoker(app, { apiKey: config.agents.signalApiKey }), close: () => app.close() };
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
}

/** MCP over stdin/stdout. Only protocol messages go to stdout; logs go to stderr. */
export async function runStdioServer(config: Config, logger: Logger): Promise<StdioSession> {
  const source = await openInvoker(config, logger);
  const server = createMcpServer(source.invoke);
  const transport = new StdioServerTransport();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  // Deferred by one tick so the re-entrant call (server.close() fires the transport's onclose) finds it set.
  const close = () =>
    (closing ??= Promise.resolve().then(async () => {
      await server.close().catch(() => {});
      await source.close();
      resolveClosed();
    }));
  process.stdin.once('end', () => void close());
  await server.connect(transport);
  server.server.onclose = () => void close();
  return { closed, close };
}
