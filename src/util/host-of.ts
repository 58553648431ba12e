/**
 * What logs and `notify test` show of a webhook or heartbeat URL: its host (and port), never
 * its path or query, where the tokens are.
 */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || '(no host)';
  } catch {
    return '(not a URL)';
  }
}
