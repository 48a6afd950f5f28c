import pino, { type Logger } from 'pino';
import type { ServerConfig } from './config.js';

/** Structured JSON logs on stderr (stdout stays free for command output); credentials are never written. */
export function createLogger(
  server: Pick<ServerConfig, 'logLevel'>,
  name = 'signal-service',
  destination: pino.DestinationStream = pino.destination(2),
): Logger {
  return pino(
    {
      name,
      level: server.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-payment"]',
          'req.headers.cookie',
          '*.token',
          '*.apiKey',
          '*.password',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
