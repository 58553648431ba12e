/**
 * What `status` reads from state.sqlite and inbox.sqlite, opened read-only and never migrated:
 * `status` may run beside an older `serve`, and must not upgrade files under it. Against an
 * older schema it reads the columns and tables that schema has; the files it found older are
 * listed in `olderSchema` (the service upgrades them at its next start).
 */

import { InboxProgress } from '../sink/inbox-progress.js';
import type { SQLiteTable } from '../state/drizzle.js';
import { desc, getTableColumns, max } from '../state/drizzle.js';
import { INBOX_DB_FILE, openInboxDbReadOnly } from '../state/inbox-db.js';
import { deliveries } from '../state/inbox-schema.js';
import type { ReadOnlySqlite } from '../state/open-sqlite.js';
import { hooks, runs } from '../state/schema.js';
import { loadSourceRecord, type SourceRecord } from '../state/source-record.js';
import { openStateDbReadOnly, STATE_DB_FILE } from '../state/state-db.js';
import { type DataCheckStatus, dataCheckStatus } from './data-check-status.js';

/** One sync run as `status` lists it. */
export interface StatusRun {
  runId: string;
  snapshotDate: string;
  status: string;
  trigger: string;
  startedAt: string;
  finishedAt: string | null;
  requests: number;
  retries: number;
  throttled: number;
  rowsWritten: number;
  /** Attempts of the run that failed (the scheduler's retries back off by it). */
  failures: number;
  error: string | null;
}

/** One hook as `status` lists it: never its secret, only whether one is held. */
export interface StatusHook {
  hookId: string;
  searchId: number;
  searchType: string | null;
  status: string | null;
  targetUrl: string;
  deleted: boolean;
  secretHeld: boolean;
}

export interface StatusInbox {
  backlog: number;
  /** Deliveries the sink's loader set aside (kept in the inbox: `sink quarantine list`). */
  quarantined: number;
  lastDelivery: string | null;
  lastPublish: string | null;
}

export interface StatusFiles {
  runs: StatusRun[];
  hooks: StatusHook[];
  inbox: StatusInbox;
  dataChecks: DataCheckStatus | null;
  /** The API account the data directory's figures come from, recorded at its first sync. */
  source: SourceRecord | null;
  /** Files whose schema is older than this release's. */
  olderSchema: string[];
}

export function readStatusFiles(dataDir: string): StatusFiles {
  const files: StatusFiles = {
    runs: [],
    hooks: [],
    inbox: { backlog: 0, quarantined: 0, lastDelivery: null, lastPublish: null },
    dataChecks: null,
    source: null,
    olderSchema: [],
  };
  const state = openStateDbReadOnly(dataDir);
  if (state) {
    try {
      if (state.pending.length) files.olderSchema.push(STATE_DB_FILE);
      Object.assign(files, readState(state));
    } finally {
      state.close();
    }
  }
  const inbox = openInboxDbReadOnly(dataDir);
  if (inbox) {
    try {
      if (inbox.pending.length) files.olderSchema.push(INBOX_DB_FILE);
      files.inbox = readInbox(inbox);
    } finally {
      inbox.close();
    }
  }
  return files;
}

function readState(state: NonNullable<ReturnType<typeof openStateDbReadOnly>>) {
  const runRows = state.db
    .select(existingColumns(state, runs, 'runs'))
    .from(runs)
    .orderBy(desc(runs.startedAt))
    .limit(10)
    .all() as Partial<typeof runs.$inferSelect>[];
  const hookRows = state.db
    .select(existingColumns(state, hooks, 'hooks'))
    .from(hooks)
    .all() as Partial<typeof hooks.$inferSelect>[];
  return {
    dataChecks: dataCheckStatus(state),
    source: loadSourceRecord(state) ?? null,
    runs: runRows.map((r) => ({
      runId: r.runId ?? '',
      snapshotDate: r.snapshotDate ?? '',
      status: r.status ?? '',
      trigger: r.trigger ?? 'manual',
      startedAt: r.startedAt ?? '',
      finishedAt: r.finishedAt ?? null,
      requests: r.requests ?? 0,
      retries: r.retries ?? 0,
      throttled: r.throttled ?? 0,
      rowsWritten: r.rowsWritten ?? 0,
      failures: r.failures ?? 0,
      error: r.error ?? null,
    })),
    hooks: hookRows.map((h) => ({
      hookId: h.hookId ?? '',
      searchId: h.searchId ?? 0,
      searchType: h.searchType ?? null,
      status: h.status ?? null,
      targetUrl: h.targetUrl ?? '',
      deleted: h.deletedAt != null,
      secretHeld: h.deletedAt == null && Boolean(h.secret),
    })),
  };
}

/** Backlog, last delivery and last publish; an inbox from before the loader's watermark marked each delivery. */
function readInbox(inbox: NonNullable<ReturnType<typeof openInboxDbReadOnly>>): StatusInbox {
  const lastDelivery =
    inbox.db
      .select({ at: max(deliveries.receivedAt) })
      .from(deliveries)
      .get()?.at ?? null;
  if (hasTable(inbox, 'loader_progress')) {
    const progress = new InboxProgress(inbox);
    return {
      backlog: progress.backlog(),
      quarantined: progress.quarantined(),
      lastDelivery,
      lastPublish: progress.lastPublishAt(),
    };
  }
  const legacy = inbox.sqlite
    .prepare(
      'select count(*) filter (where loaded_at is null) as backlog, max(loaded_at) as last from deliveries',
    )
    .get() as { backlog: number; last: string | null };
  return { backlog: legacy.backlog, quarantined: 0, lastDelivery, lastPublish: legacy.last };
}

/** The table's drizzle columns that the file's table has (an older schema lacks later ones). */
function existingColumns<T extends SQLiteTable>(
  file: ReadOnlySqlite<Record<string, unknown>>,
  table: T,
  name: string,
): T['_']['columns'] {
  const present = new Set(
    file.sqlite.prepare(`select name from pragma_table_info('${name}')`).pluck().all() as string[],
  );
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).filter(([, column]) => present.has(column.name)),
  ) as T['_']['columns'];
}

function hasTable(file: ReadOnlySqlite<Record<string, unknown>>, name: string): boolean {
  return (
    file.sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !==
    undefined
  );
}
