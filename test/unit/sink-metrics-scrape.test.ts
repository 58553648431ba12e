import { describe, expect, it } from 'vitest';
import { SinkMetrics } from '../../src/sink/sink-metrics.js';

describe('SinkMetrics.scrape', () => {
  it('reads the runs table once per scrape for its three cw_sync_* gauges', async () => {
    let reads = 0;
    let failed = 2;
    const metrics = new SinkMetrics({
      backlog: () => 0,
      publishLagSeconds: () => 0,
      lastPublishSeconds: () => 0,
      syncRuns: () => {
        reads += 1;
        return { lastSuccessSeconds: 1_795_000_000, failed, lastFailed: true };
      },
    });
    const first = await metrics.scrape();
    expect(reads).toBe(1);
    expect(first).toMatch(/^cw_sync_last_success_timestamp_seconds 1795000000$/m);
    expect(first).toMatch(/^cw_sync_failed_runs 2$/m);
    expect(first).toMatch(/^cw_sync_last_run_failed 1$/m);
    failed = 3;
    const second = await metrics.scrape();
    expect(reads).toBe(2);
    expect(second).toMatch(/^cw_sync_failed_runs 3$/m);
  });
});
