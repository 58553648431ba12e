import cron from 'node-cron';

/** Why `expression` is not a cron expression node-cron runs, or undefined when it is one. */
export function cronProblem(expression: string): string | undefined {
  return cron.validate(expression) ? undefined : `"${expression}" is not a valid cron expression`;
}

/**
 * Why `timezone` is not an IANA time zone this Node knows (node-cron formats dates with
 * Intl.DateTimeFormat in it and would throw at the first schedule), or undefined when it is.
 */
export function timezoneProblem(timezone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return undefined;
  } catch {
    return `"${timezone}" is not a known time zone (an IANA name such as UTC or Europe/Paris)`;
  }
}
