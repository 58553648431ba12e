import { statfsSync } from 'node:fs';
import { resolve } from 'node:path';
import { firstLine } from './first-line.js';

/** What DuckDB, SQLite and Node say when a write found the file system full. */
const NO_SPACE = /no space left on device|ENOSPC|SQLITE_FULL|database or disk is full/i;
/**
 * What they may say instead (SQLite's WAL on a full disk, DuckDB's failed rollback): a full
 * disk only when the data directory's file system is indeed (nearly) full.
 */
const MAYBE_NO_SPACE = /disk I\/O error|SQLITE_IOERR|Failed to run the query 'ROLLBACK'/i;
/** Below this, a vague I/O error on the data directory is taken for a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * The message of a write that failed for lack of space, saying so and naming the data
 * directory (`disk I/O error` alone leaves users guessing); undefined for any other error.
 */
export function noSpaceMessage(error: unknown, dataDir: string): string | undefined {
  const text = `${firstLine(error)} ${(error as { code?: unknown } | undefined)?.code ?? ''}`;
  const free = freeBytes(dataDir);
  if (!NO_SPACE.test(text) && !(MAYBE_NO_SPACE.test(text) && free !== undefined && free < NEARLY_FULL_BYTES))
    return undefined;
  const left = free === undefined ? '' : `, ${free} bytes free`;
  return `no space left on device: the data directory ${resolve(dataDir)} is full${left} (${firstLine(error)})`;
}

/**
 * `error` as a one-line "no space left on device" error naming the data directory (exit code
 * 1, the original as its cause) when it is one; otherwise `error` itself.
 */
export function explainNoSpace(error: unknown, dataDir: string, advice = ''): unknown {
  const message = noSpaceMessage(error, dataDir);
  if (message === undefined) return error;
  return Object.assign(new Error(`${message}${advice}`, { cause: error }), { exitCode: 1 });
}

function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}
