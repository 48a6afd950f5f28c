import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { ServiceError } from '../../domain/errors.js';
import type { ToolInvoker } from '../invoke.js';
import type { CompletionSource } from './completions.js';

export interface StdioSession {
  /** Resolves when the client closes stdin (or close() is called). */
  closed: Promise<void>;
  /** Resolves when the data is open and tools are answered (at once for a remote deployment). */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface DataSource {
  invoke: ToolInvoker;
  completions: CompletionSource;
  close(): Promise<void>;
}

/**
 * The application built by the composition root on the same store the HTTP server reads (the embedded database
 * admits a second process beside a running server), with the same period watcher and warm-up.
 */
async function openLocal(config: Config, logger: Logger): Promise<DataSource> {
  const [{ createApp }, { localInvoker }, { localCompletions }] = await Promise.all([
    import('../../app.js'),
    import('../invoke.js'),
    import('./completions.js'),
  ]);
  // A second process beside a running server: few connections, and only the period's jobs (the server runs the rest).
  const app = await createApp(config, logger, { poolSize: 2, jobs: 'period-only' });
  try {
    await app.open();
    app.warmUp();
    logger.info(
      { database: app.store.mode, period: app.holder.current?.period.slug },
      'signal-mcp: serving local data',
    );
    return {
      invoke: localInvoker(app, { apiKey: config.agents.signalApiKey }),
      completions: localCompletions(app),
      close: () => app.close(),
    };
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
}

/** A remote deployment (SIGNAL_BASE_URL): every call is a POST to its /api/agent/call. */
async function openRemote(baseUrl: string, apiKey: string | undefined, logger: Logger): Promise<DataSource> {
  const [{ remoteInvoker }, { remoteCompletions }] = await Promise.all([
    import('../invoke.js'),
    import('./completions.js'),
  ]);
  logger.info({ remote: baseUrl }, 'signal-mcp: proxying a remote deployment');
  const invoke = remoteInvoker(baseUrl, apiKey);
  return { invoke, completions: remoteCompletions(invoke), close: async () => {} };
}

/**
 * The data behind the stdio server, opened in the background: until it is open, calls wait for it; if it cannot be
 * opened, they answer 503 with why.
 */
function openSource(config: Config, logger: Logger): { source: DataSource; opening: Promise<DataSource> } {
  const { signalBaseUrl, signalApiKey } = config.agents;
  const opening = signalBaseUrl ? openRemote(signalBaseUrl, signalApiKey, logger) : openLocal(config, logger);
  opening.catch((err: unknown) => logger.error({ err }, 'signal-mcp: could not open the data'));
  const open = async (): Promise<DataSource> => {
    try {
      return await opening;
    } catch (err) {
      throw new ServiceError('mcp-data-unavailable', { reason: (err as Error).message });
    }
  };
  return {
    opening,
    source: {
      invoke: async (name, args, options) => (await open()).invoke(name, args, options),
      completions: {
        startupNames: async () => (await open()).completions.startupNames(),
        periodSlugs: async () => (await open()).completions.periodSlugs(),
      },
      close: async () => {
        const source = await opening.catch(() => undefined);
        await source?.close();
      },
    },
  };
}

/**
 * MCP over stdin/stdout, in both revisions: the SDK's stdio entry reads the opening message (an `initialize`, or a
 * 2026-07-28 request carrying its `_meta` envelope, `server/discover` first) and pins the connection to one server
 * of that revision. Only protocol messages go to stdout; logs go to stderr.
 *
 * The opening is answered at once: the server that answers it knows only its identity and capabilities
 * (./identity.ts). The tool registry with its schemas and handlers is loaded behind it, and the data (the local
 * store, whose first opening on a fresh DATA_DIR migrates and loads the demo data, or a remote deployment) is
 * opened behind that; a request that arrives earlier waits for what it needs.
 */
export async function runStdioServer(config: Config, logger: Logger): Promise<StdioSession> {
  const { source, opening } = openSource(config, logger);
  const { baseUrl } = config.server;
  const [{ serveStdio }, { createLazyServer }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('./modern-lazy.js'),
  ]);
  // Proxying a deployment, get_deep_signal is also sold per call by that deployment's x402 route (./x402-remote.ts).
  const { signalBaseUrl, signalApiKey } = config.agents;
  const handlers = Promise.all([import('./server.js'), signalBaseUrl ? import('./x402-remote.js') : undefined]).then(
    ([{ mcpHandlersByMethod }, remote]) =>
      mcpHandlersByMethod(source.invoke, source.completions, {
        baseUrl,
        ...(remote && signalBaseUrl
          ? { x402: { payments: remote.remoteX402(signalBaseUrl), hasKey: Boolean(signalApiKey) } }
          : {}),
      }),
  );
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  let handle: { close(): Promise<void> } | undefined;
  // Deferred by one tick so the re-entrant call (closing the server fires its onclose) finds it set.
  const close = () =>
    (closing ??= Promise.resolve().then(async () => {
      await handle?.close().catch(() => {});
      await source.close();
      resolveClosed();
    }));
  process.stdin.once('end', () => void close());
  handle = serveStdio(
    () => {
      const server = createLazyServer(handlers, baseUrl);
      server.onclose = () => void close();
      return server;
    },
    { onerror: (err) => logger.debug({ err }, 'signal-mcp: protocol error') },
  );
  return {
    closed,
    ready: opening.then(
      () => undefined,
      () => undefined,
    ),
    close,
  };
}
