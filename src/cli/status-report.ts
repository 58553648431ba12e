/**
 * What `campaign-warehouse status` shows: the last runs, freshness and row counts of the
 * published warehouse, hooks (never their secrets), the inbox backlog, the last delivery
 * and the last publish of pushed documents. It only reads: no file is created or migrated
 * (see read-status-files.ts).
 */
import { existsSync } from 'node:fs';
import { describeSource, type SourceRecord } from '../state/source-record.js';
import { catalogIsCurrent, publishedPath, withReadOnly } from '../warehouse/index.js';
import {
  type DataCheckStatus,
  formatDataCheckStatus,
  type NewDrift,
  newDrift,
  publishedDataChecks,
} from './data-check-status.js';
import { readStatusFiles, type StatusHook, type StatusInbox, type StatusRun } from './read-status-files.js';
import { formatRemoteStatus, type RemoteStatus, remoteStatus } from './remote-status.js';

export interface StatusReport {
  dataDir: string;
  warehouse: string;
  published: boolean;
  latestSnapshot: string | null;
  lastSucceededAt: string | null;
  rowCounts: Record<string, number>;
  runs: StatusRun[];
  hooks: StatusHook[];
  inbox: StatusInbox;
  /** state.sqlite / inbox.sqlite when older than this release: read as they are, upgraded by the service's next start. */
  olderSchema: string[];
  /** The latest sync run's data checks (published or stopped by --strict). */
  dataChecks: DataCheckStatus | null;
  /** The API account the figures come from (recorded at the first sync; null before it). */
  source?: SourceRecord | null;
  /** Fields, stats and networks the spec does not list, first seen in the latest snapshot. */
  newDrift: NewDrift[];
  /** warehouse.duckdb's views point at another lake (a moved directory, a previous release). */
  catalogStale: boolean;
  /** The remote lake, per table (the configured remote and any this directory committed to; [] for none). */
  remotes?: RemoteStatus[];
}

/** `remoteUrl`: the configured remote's URL, shown even before its first commit. */
export async function statusReport(dataDir: string, remoteUrl?: string): Promise<StatusReport> {
  const { olderSchema, ...files } = readStatusFiles(dataDir);
  const report: StatusReport = {
    dataDir,
    warehouse: publishedPath(dataDir),
    published: existsSync(publishedPath(dataDir)),
    latestSnapshot: null,
    lastSucceededAt: null,
    rowCounts: {},
    ...files,
    olderSchema,
    newDrift: [],
    catalogStale: false,
    remotes: await remoteStatus(dataDir, remoteUrl),
  };
  // A moved data directory (or a previous release's file): the views point elsewhere, and
  // status changes no file; it says what rewrites the catalog instead of reading through it.
  report.catalogStale = report.published && !catalogIsCurrent(dataDir);
  if (report.published && !report.catalogStale) {
    // One read-only session for the freshness, the row counts and the new drift.
    await withReadOnly(dataDir, async (query) => {
      const fresh = await query(
        // finished_at as a timestamp: read back as ISO 8601 UTC, as every time status shows.
        "select max(snapshot_date)::varchar, max(finished_at) from sync_runs where status = 'succeeded'",
      );
      report.latestSnapshot = (fresh.rows[0]?.[0] as string | null) ?? null;
      report.lastSucceededAt = (fresh.rows[0]?.[1] as string | null) ?? null;
      // The tables are views over the lake; count(*) reads only the Parquet files' footers. The
      // latest_<fact> views read the lake too (their table's latest snapshot): not tables.
      const tables = await query(
        "select view_name from duckdb_views() where schema_name = 'main' and sql ilike '%read_parquet(%' and not starts_with(view_name, 'latest_') order by view_name",
      );
      if (tables.rows.length) {
        const counts = await query(
          `select * from (${tables.rows.map(([name]) => `select '${name}' as t, count(*) from "${name}"`).join(' union all ')}) order by t`,
        );
        for (const [name, rows] of counts.rows) report.rowCounts[String(name)] = Number(rows);
      }
      if (report.latestSnapshot) {
        report.newDrift = await newDrift(query, report.latestSnapshot);
        // The state keeps the newest run's checks; a forced run of an earlier day must not
        // stand for the latest snapshot's (a strict run stopped on a later day still does).
        if (!report.dataChecks || report.dataChecks.snapshotDate < report.latestSnapshot)
          report.dataChecks =
            (await publishedDataChecks(query, report.latestSnapshot, report.dataChecks?.mode)) ??
            report.dataChecks;
      }
    });
  }
  return report;
}

export function formatStatus(r: StatusReport): string {
  const out: string[] = [];
  out.push(
    `warehouse: ${r.warehouse}${r.published ? '' : ' (not published yet: run `campaign-warehouse sync`)'}`,
  );
  out.push(
    r.source
      ? `source: ${describeSource(r.source)}, since ${r.source.recordedAt}`
      : 'source: none recorded (the next sync records its base URL and workspaces)',
  );
  if (r.catalogStale)
    out.push(
      'catalog: warehouse.duckdb was written for another place or release (a moved or copied data directory, ' +
        'or a warehouse from before the lake): run `campaign-warehouse catalog rebuild` (the next sync or sink publish does it too)',
    );
  else if (r.published) {
    out.push(
      r.lastSucceededAt
        ? `freshness: latest snapshot ${r.latestSnapshot ?? 'none'}, last successful sync finished ${r.lastSucceededAt}`
        : 'freshness: no successful sync yet',
    );
    const tables = Object.entries(r.rowCounts);
    out.push(tables.length ? 'rows:' : 'rows: none yet');
    for (const [table, rows] of tables) out.push(`  ${table.padEnd(30)} ${rows}`);
  }
  out.push('last runs:');
  if (!r.runs.length) out.push('  none');
  for (const run of r.runs) {
    out.push(
      `  ${run.startedAt}  ${run.snapshotDate}  ${run.status.padEnd(9)} ${run.trigger.padEnd(8)} requests ${run.requests}, retries ${run.retries}, 429s ${run.throttled}, rows ${run.rowsWritten}${run.failures ? `, failed attempts ${run.failures}` : ''}${run.error ? `  error: ${run.error}` : ''}`,
    );
  }
  out.push(...formatDataCheckStatus(r.dataChecks, r.newDrift));
  // Deleted hooks are history: counted, not listed (--json and `hooks list --all` have them).
  const live = r.hooks.filter((h) => !h.deleted);
  const deleted = r.hooks.length - live.length;
  out.push(`hooks:${deleted ? ` (${deleted} deleted not shown)` : ''}`);
  if (!live.length) out.push('  none');
  for (const h of live) {
    out.push(
      `  ${h.hookId}  search ${h.searchId} (${h.searchType ?? '?'})  ${h.status ?? '?'}  secret ${h.secretHeld ? 'held' : 'not held'}  ${h.targetUrl}`,
    );
  }
  out.push(
    `inbox: backlog ${r.inbox.backlog}, last delivery ${r.inbox.lastDelivery ?? 'never'}, last publish ${r.inbox.lastPublish ?? 'never'}`,
  );
  if (r.inbox.quarantined)
    out.push(
      `inbox: ${r.inbox.quarantined} ${r.inbox.quarantined === 1 ? 'delivery' : 'deliveries'} quarantined (acknowledged, ` +
        'not publishable, kept): see `campaign-warehouse sink quarantine list`',
    );
  out.push(...formatRemoteStatus(r.remotes ?? []));
  if (r.olderSchema.length)
    out.push(
      `note: ${r.olderSchema.join(' and ')} ${r.olderSchema.length > 1 ? 'have' : 'has'} an older schema: shown as it is; ` +
        'the service (serve or sink) upgrades it at its next start, as does the next sync (status changes no file)',
    );
  return `${out.join('\n')}\n`;
}
