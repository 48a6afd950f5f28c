import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { AppContext } from '../../http/context.js';
import { seedDemoIfEmpty } from '../../pipeline/demo/seed.js';
import { SnapshotHolder, startPeriodPoller } from '../../snapshot/holder.js';
import { loadSnapshot } from '../../snapshot/load.js';
import { migrateToLatest, openStore } from '../../store/database.js';
import { localInvoker, remoteInvoker, type ToolInvoker } from '../invoke.js';
import { createMcpServer } from './server.js';

export interface StdioSession {
  /** Resolves when the client closes stdin (or close() is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The data behind the stdio server: a remote deployment when SIGNAL_BASE_URL is set, otherwise the same store and
 * snapshot the HTTP server reads (the embedded database admits a second process beside a running server).
 */
async function openInvoker(config: Config, logger: Logger): Promise<{ invoke: ToolInvoker; close(): Promise<void> }> {
  const { signalBaseUrl, signalApiKey } = config.agents;
  if (signalBaseUrl) {
    logger.info({ remote: signalBaseUrl }, 'signal-mcp: proxying a remote deployment');
    return { invoke: remoteInvoker(signalBaseUrl, signalApiKey), close: async () => {} };
  }
  const store = await openStore({ dataDir: config.database.dataDir, databaseUrl: config.database.url, poolSize: 2 });
  try {
    await migrateToLatest(store.db);
    if (config.demo.enabled) await seedDemoIfEmpty(store.db, { seed: config.demo.seed });
    const holder = new SnapshotHolder(await loadSnapshot(store.db, config.server.baseUrl));
    const stopPolling = startPeriodPoller({
      db: store.db,
      baseUrl: config.server.baseUrl,
      holder,
      intervalMs: config.periods.pollMs,
      onError: (err) => logger.warn({ err }, 'signal-mcp: could not check for a new period'),
      onSwap: (s) => logger.info({ period: s.period.slug }, 'signal-mcp: serving a newly published period'),
    });
    const ctx: AppContext = { config, store, holder, log: logger };
    logger.info({ database: store.mode, period: holder.current?.period.slug }, 'signal-mcp: serving local data');
    return {
      invoke: localInvoker(ctx, signalApiKey),
      async close() {
        stopPolling();
        await store.close();
      },
    };
  } catch (err) {
    await store.close().catch(() => {});
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
