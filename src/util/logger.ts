import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON log lines on stderr (stdout is kept for command output). Level from
 * CW_LOG_LEVEL (default info). Secrets are never passed to the logger; the redact list is
 * a second line of defence for header objects.
 */
export function createLogger(name = 'campaign-warehouse'): Logger {
  return pino(
    {
      name,
      level: process.env.CW_LOG_LEVEL ?? 'info',
      redact: {
        paths: ['apikey', '*.apikey', 'headers.apikey', 'secret', '*.secret', 'x-hook-secret'],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.destination({ fd: 2, sync: true }),
  );
}
