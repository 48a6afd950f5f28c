import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { createTestStorage, DEFAULT_DEMO_SEED, type StorageContents, type TestStorage } from './database.js';

export interface TestService {
  /** Where the test talks to the server, e.g. http://127.0.0.1:41234 (also the configured BASE_URL). */
  url: string;
  config: Config;
  service: RunningService;
  storage: TestStorage;
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * What a start finds in a test's storage: the demo data a first start would store (`demo`) when the configuration
 * is the demo's own, else a migrated store with no period.
 */
export function startingContents(env: Record<string, string>): StorageContents {
  const demo = (env.DEMO_DATA ?? 'on') === 'on' && (env.DEMO_SEED ?? DEFAULT_DEMO_SEED) === DEFAULT_DEMO_SEED;
  return demo ? 'demo' : 'migrated';
}

/**
 * Starts the real service on a free port over its own storage (embedded, or a fresh PostgreSQL database when
 * DATABASE_URL is set), prepared as `startingContents` says unless `contents` is given. `env` overrides
 * configuration variables.
 */
export async function startTestService(
  env: Record<string, string> = {},
  options: { forceEmbedded?: boolean; contents?: StorageContents } = {},
): Promise<TestService> {
  const storage = await createTestStorage({ contents: startingContents(env), ...options });
  // Find a free port first so BASE_URL (used in every canonical URL) names the address the test calls.
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: storage.dataDir,
    LOG_LEVEL: 'silent',
    PERIOD_POLL_MS: '200',
    // Tests send far more than a client's budget from one address; tests of the limiter turn it back on.
    RATE_LIMIT: 'off',
    // Likewise for connections: concurrency tests open hundreds from 127.0.0.1 (fetch opens one per request in flight).
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '100000',
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    ...env,
  });
  const service = await startService(config, createLogger(config.server));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    config,
    service,
    storage,
    get: (path, init) => fetch(`${url}${path}`, init),
    async close() {
      await service.close();
      await storage.cleanup();
    },
  };
}
