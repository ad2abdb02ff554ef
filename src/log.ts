/** Structured JSON logs (pino). Request logs carry the request id under `reqId`. */
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/** `to: 'stderr'` keeps a CLI command's stdout for its own output. */
export function createLogger(config: Pick<Config, 'logLevel'>, to: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    {
      level: config.logLevel,
      // Keys and cookies never reach the log.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: '[redacted]' },
    },
    pino.destination(to === 'stderr' ? 2 : 1),
  );
}
