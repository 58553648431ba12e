/**
 * The pipeline's own state (<dataDir>/state.sqlite): sync runs, their checkpoints and the
 * hook registry. Migrations are generated into sql/state/ by `npm run db:generate`.
 */
import { index, integer, primaryKey, sqliteTable, text } from './drizzle.js';

/** One row per sync attempt. A resumed run keeps its run_id (same snapshot date, not finished). */
export const runs = sqliteTable(
  'runs',
  {
    runId: text('run_id').primaryKey(),
    snapshotDate: text('snapshot_date').notNull(),
    /** running | succeeded | failed */
    status: text('status').notNull(),
    /** 'manual' | 'scheduled' | 'catch-up' | 'retry' */
    trigger: text('trigger').notNull().default('manual'),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    requests: integer('requests').notNull().default(0),
    retries: integer('retries').notNull().default(0),
    throttled: integer('throttled').notNull().default(0),
    rowsWritten: integer('rows_written').notNull().default(0),
    /** One line naming the cause, endpoint and X-Request-Id; never a secret. */
    error: text('error'),
    /**
     * Attempts of this run that failed (a resumed run keeps its id, so the row alone would not
     * say): with finished_at, the scheduler's retry backoff, which so survives a restart.
     */
    failures: integer('failures').notNull().default(0),
    /** JSON array of segment names the run covers. */
    segments: text('segments').notNull().default('["all"]'),
    pid: integer('pid'),
    heartbeatAt: text('heartbeat_at'),
  },
  (t) => [index('runs_snapshot_idx').on(t.snapshotDate, t.status)],
);

/** Units of a run already fetched and staged: skipped when the run resumes. */
export const checkpoints = sqliteTable(
  'checkpoints',
  {
    snapshotDate: text('snapshot_date').notNull(),
    segment: text('segment').notNull(),
    /** e.g. 'workspaces', 'tags', 'campaigns', 'campaign:<id>' */
    unit: text('unit').notNull(),
    rows: integer('rows').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    doneAt: text('done_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotDate, t.segment, t.unit] })],
);

/** Hooks this tool created (or saw on the API), with the secret it needs to verify pushes. */
export const hooks = sqliteTable('hooks', {
  hookId: text('hook_id').primaryKey(),
  searchId: integer('search_id').notNull(),
  searchType: text('search_type'),
  targetUrl: text('target_url').notNull(),
  /** Unique path segment added to the target URL: the sink finds the hook (and secret) by it. */
  pathToken: text('path_token').notNull().unique(),
  /** HMAC key of the hook's pushes. Never printed, logged or copied to the warehouse. */
  secret: text('secret').notNull(),
  companyId: text('company_id'),
  status: text('status'),
  updated: text('updated'),
  version: text('version'),
  createdAt: text('created_at').notNull(),
  deletedAt: text('deleted_at'),
});

/** Small key/value facts of the service: last publish, last scheduled slot, ... */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/**
 * Notification incidents (src/notify/): one row per kind, open while resolved_at is NULL.
 * Kept here so that a restart neither repeats a message nor forgets an incident, and so that
 * two processes of one data directory (serve, a cron sync, status) agree on what was sent.
 */
export const incidents = sqliteTable('incidents', {
  /** sync_failed, data_stale, data_checks_failed, history_checks_failed, sink_*, disk_low */
  kind: text('kind').primaryKey(),
  /** ISO-8601 UTC: when the current (or last) incident of this kind started. */
  openedAt: text('opened_at').notNull(),
  /** When a message about it was last sent (start or reminder). */
  notifiedAt: text('notified_at').notNull(),
  /** NULL while open. */
  resolvedAt: text('resolved_at'),
  summary: text('summary').notNull(),
  /** JSON object: the latest details (attempt, backlog, failing checks...). */
  details: text('details').notNull().default('{}'),
});
