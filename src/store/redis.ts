import { Redis } from 'ioredis';

/**
 * The shared Redis connection (REDIS_URL). Used for state several instances must share (rate-limit counters and
 * similar, added by later issues); readiness checks it. Commands fail fast instead of queueing while disconnected,
 * so a Redis outage never stalls a request.
 */
export function createRedis(
  url: string,
  extra: { commandTimeout?: number; enableAutoPipelining?: boolean } = {},
): Redis {
  const redis = new Redis(url, {
    ...extra,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  // Connection errors are reported through readiness, not as unhandled events.
  redis.on('error', () => {});
  return redis;
}

export async function pingRedis(redis: Redis, timeoutMs = 1_000): Promise<void> {
  if (redis.status === 'wait') await redis.connect().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('redis did not answer in time')), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
