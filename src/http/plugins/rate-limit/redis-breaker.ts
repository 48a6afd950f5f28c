import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * A circuit breaker in front of Redis. It opens on the first command that fails or times out (the limiter
 * connection's command timeout), and while it is open every decision is taken from this instance's memory without
 * asking Redis: a Redis that is frozen (its process stopped, its socket open, nothing answered) costs a request at
 * most one command timeout, once, instead of one per request and key. While open it sends a PING every `probeMs`;
 * the first one answered closes it, and the limits are shared through Redis again.
 */
export class RedisBreaker {
  private opened = false;

  constructor(
    private readonly redis: Redis,
    private readonly probeMs = 1_000,
    private readonly log?: Logger,
  ) {}

  get open(): boolean {
    return this.opened;
  }

  trip(): void {
    if (this.opened) return;
    this.opened = true;
    this.log?.warn("redis is not answering: rate limits are decided in this instance's memory until it does");
    this.probe();
  }

  private probe(): void {
    const timer = setTimeout(() => {
      // The connection's command timeout bounds the PING; a connection that is down fails at once.
      this.redis.ping().then(
        () => {
          this.opened = false;
          this.log?.info('redis answers again: rate limits are shared through it');
        },
        () => this.probe(),
      );
    }, this.probeMs);
    timer.unref();
  }
}
