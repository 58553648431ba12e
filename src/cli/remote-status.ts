/**
 * What `status` says of the remote lake (docs/remote.md, "Watching the remote"): per table, the
 * remote's current snapshot and its commit time as this data directory last committed them,
 * and whether the remote lags the local lake. From the state files and the lake's links only:
 * no request to the store, nothing written.
 */
import { remoteLags, type TableLag } from '../remote/index.js';

export interface RemoteTableStatus {
  table: string;
  /** The table's metadata version (0: never committed from this data directory). */
  version: number;
  snapshotId: number | null;
  /** ISO-8601 UTC. */
  committedAt: string | null;
  /** The local lake has a publish this remote has not committed. */
  behind: boolean;
  /** Local files not yet uploaded, and this data directory's remote files not yet removed. */
  filesNotCommitted: number;
  filesNotRemoved: number;
  /** ISO-8601 UTC: the oldest local publish the remote lacks. */
  behindSince: string | null;
}

export interface RemoteStatus {
  url: string;
  /** The remote of the config (--config / CW_CONFIG's `remote`, or CW_REMOTE); false: only a state file names it. */
  configured: boolean;
  /** Some table is behind. */
  behind: boolean;
  tables: RemoteTableStatus[];
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** The configured remote (if any) and every remote this data directory has committed to. */
export async function remoteStatus(dataDir: string, configured: string | undefined): Promise<RemoteStatus[]> {
  return (await remoteLags(dataDir, configured)).map((lag) => ({
    url: lag.url,
    configured: lag.url === configured,
    behind: lag.tables.some((t) => t.behind),
    tables: lag.tables.map(tableStatus),
  }));
}

function tableStatus(t: TableLag): RemoteTableStatus {
  return {
    table: t.table,
    version: t.version,
    snapshotId: t.snapshotId ?? null,
    committedAt: iso(t.committedAt),
    behind: t.behind,
    filesNotCommitted: t.notCommitted,
    filesNotRemoved: t.notRemoved,
    behindSince: iso(t.behindSince),
  };
}

/** The remotes as status's text lines. */
export function formatRemoteStatus(remotes: readonly RemoteStatus[]): string[] {
  const out: string[] = [];
  for (const r of remotes) {
    out.push(`remote ${r.url}${r.configured ? '' : ' (not configured now)'}: ${headline(r)}`);
    for (const t of r.tables) {
      const at = t.committedAt
        ? `v${t.version}  snapshot ${t.snapshotId}  committed ${t.committedAt}`
        : 'not committed yet';
      const files = [
        t.filesNotCommitted ? `${t.filesNotCommitted} file(s) to upload` : '',
        t.filesNotRemoved ? `${t.filesNotRemoved} file(s) to remove` : '',
      ].filter(Boolean);
      out.push(
        `  ${t.table.padEnd(30)} ${at}  ${t.behind ? `behind since ${t.behindSince}: ${files.join(', ')}` : 'current'}`,
      );
    }
  }
  return out;
}

function headline(r: RemoteStatus): string {
  if (r.tables.length === 0) return 'nothing committed, nothing to commit yet';
  const lagging = r.tables.filter((t) => t.behind).length;
  const state = lagging
    ? `${lagging} of ${r.tables.length} tables behind the local lake (the next publish or \`campaign-warehouse remote push\` commits them)`
    : `all ${r.tables.length} tables current`;
  return `${state}, as this data directory last committed it`;
}
