import { firstLine } from '../util/first-line.js';
import { noSpaceMessage } from '../util/no-space.js';

/**
 * A failure of the loader's work as a whole, never of one delivery in it: the loader retries
 * the whole batch one interval later and sets no delivery aside (a full disk must not
 * quarantine good documents). Thrown as such when a lookup shared by every delivery fails (a
 * stored schema that does not compile).
 */
export class WholeBatchError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WholeBatchError';
  }
}

/**
 * What the file systems, SQLite and DuckDB say when the place, not the data, is at fault:
 * I/O, space, permissions, locks, memory, a lake folder gone or replaced.
 */
const ENVIRONMENT =
  /\bIO Error\b|I\/O error|Out of Memory|out of memory|permission denied|read-only file system|publish lock|database is locked|SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PERM|NOMEM)|Could not set lock/i;

/**
 * True when a failed publish failed for a reason every batch would meet (see WholeBatchError,
 * ENVIRONMENT, and any system error code such as ENOSPC, EACCES, ENOTDIR): the loader then
 * keeps today's rule, retry next interval. Any other failure may be one delivery's, which the
 * loader looks for (publish-apart.ts).
 */
export function isWholePublishFailure(error: unknown, dataDir: string): boolean {
  if (error instanceof WholeBatchError) return true;
  if (noSpaceMessage(error, dataDir) !== undefined) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  return ENVIRONMENT.test(firstLine(error));
}
