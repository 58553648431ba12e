import { sep } from 'node:path';

/** How many times a read query is run again after a lake file was replaced under its plan. */
export const REPLACED_FILE_RETRIES = 3;

/**
 * Runs a read-only `query`, and runs it again (up to REPLACED_FILE_RETRIES times) when it
 * failed because a file of the lake it had listed was gone when it opened it: a publish that
 * replaces files (a merge of the sink's parts, a compaction, a re-run date) swapped the
 * table's link between the query's planning and its read (docs/lake.md, "Readers"). The
 * query planned again lists the new version, so the retry sees the table complete. Any
 * other error, or a missing file outside `lake`, is thrown as it is.
 */
export async function retryReplacedFile<T>(lake: string, query: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await query();
    } catch (error) {
      if (attempt >= REPLACED_FILE_RETRIES || !isReplacedLakeFile(error, lake)) throw error;
    }
  }
}

/** DuckDB's `Cannot open file "<path>": No such file or directory` for a path inside `lake`. */
export function isReplacedLakeFile(error: unknown, lake: string): boolean {
  const message = error instanceof Error ? error.message : '';
  const match = /Cannot open file "([^"]+)": No such file or directory/.exec(message);
  return match !== null && match[1]!.startsWith(`${lake}${sep}`);
}
