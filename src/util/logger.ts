import pino, { type Logger } from 'pino';
import { UserError } from './user-error.js';

export type { Logger };

/**
 * Structured JSON log lines on stderr (stdout is kept for command output), or to
 * `destination` (sync's terminal output: text lines above its progress bar). Level from
 * CW_LOG_LEVEL (default info). Secrets are never passed to the logger; the redact list is
 * a second line of defence for header objects.
 */
export function createLogger(
  name = 'campaign-warehouse',
  destination?: { write(line: string): void },
): Logger {
  return pino(
    {
      name,
      level: logLevel(),
      redact: {
        paths: ['apikey', '*.apikey', 'headers.apikey', 'secret', '*.secret', 'x-hook-secret'],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/** CW_LOG_LEVEL, checked: one of pino's levels (default info). */
function logLevel(env: NodeJS.ProcessEnv = process.env): string {
  return checkLogLevel(env.CW_LOG_LEVEL ?? 'info', 'CW_LOG_LEVEL');
}

/** `level` if it is one of pino's levels, else a UserError naming `source`. */
export function checkLogLevel(level: string, source: string): string {
  const known = [...Object.keys(pino.levels.values), 'silent'];
  if (!known.includes(level))
    throw new UserError(`${source}: "${level}" is not a log level (one of ${known.join(', ')})`);
  return level;
}
