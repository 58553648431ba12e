/** Helpers of the history benchmark and the lake tests: a long history written directly, bytes written. */
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LAKE_DIR_NAME, linkTarget, partitionName, versionsPath } from '../src/warehouse/lake/index.js';
import type { SyncRunRecord } from '../src/warehouse/types.js';

/**
 * Gives a lake a long history quickly: every partition of `from` (snapshot_date or
 * received_date) is cloned, as hard links, to each of `dates`, as the lake's own layout
 * would hold them (a version directory under _versions/ and a partition link).
 */
export function cloneDays(dataDir: string, from: string, dates: readonly string[]): void {
  const lake = join(dataDir, LAKE_DIR_NAME);
  for (const table of readdirSync(lake)) {
    // _versions, _latest and dot names are not tables.
    if (table.startsWith('_') || table.startsWith('.')) continue;
    const dir = join(lake, table);
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue; // a whole-table link to files
    }
    const source = entries.find((name) => name.endsWith(`=${from}`));
    if (!source) continue;
    const column = source.split('=')[0]!;
    const target = linkTarget(join(dir, source))!;
    for (const date of dates) {
      const version = join(versionsPath(lake, table), `${date}.history`);
      mkdirSync(version, { recursive: true });
      for (const file of readdirSync(target)) linkSync(join(target, file), join(version, file));
      symlinkSync(relative(dir, version), join(dir, partitionName(column, date)));
    }
  }
}

/**
 * The kernel's write accounting of this process so far (/proc/self/io): `write_bytes`, what
 * it caused to be sent to storage (a page is counted when dirtied, not again while it stays
 * dirty, again if dirtied after a writeback: other processes' I/O moves it), or `wchar`,
 * every byte it passed to write(2) and pwrite(2) (exact, and also counts pipes and sockets).
 */
export function writeBytes(counter: 'write_bytes' | 'wchar' = 'write_bytes'): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(new RegExp(`^${counter}: (\\d+)$`, 'm').exec(io)![1]);
}

/** `count` consecutive dates after `start` (YYYY-MM-DD). */
export function datesAfter(start: string, count: number): string[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(first + (i + 1) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** A succeeded nightly run of `date` (21:30 to 21:40 UTC), as the history benchmarks record it. */
export function benchSyncRun(date: string, runId: string, rowsWritten = 0): SyncRunRecord {
  return {
    run_id: runId,
    started_at: `${date}T21:30:00Z`,
    finished_at: `${date}T21:40:00Z`,
    status: 'succeeded',
    snapshot_date: date,
    requests: 0,
    retries: 0,
    throttled: 0,
    rows_written: rowsWritten,
    error: null,
  };
}

/** Bytes of the files (not folders, not links) under `dir`, each inode once (hard links share one). */
export function fileBytes(dir: string, seen = new Set<number>()): number {
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) bytes += fileBytes(path, seen);
    else if (stat.isFile() && !seen.has(stat.ino)) {
      seen.add(stat.ino);
      bytes += stat.size;
    }
  }
  return bytes;
}
