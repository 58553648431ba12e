/** One sync run as the lake's sync_runs table records it. */
export interface SyncRunRecord {
  run_id: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  snapshot_date: string;
  requests: number;
  retries: number;
  throttled: number;
  rows_written: number;
  error: string | null;
}
