import { describe, expect, it } from 'vitest';
import { SinkMetrics } from '../../src/sink/sink-metrics.js';

describe('SinkMetrics.scrape', () => {
  it('reads the runs table and the data checks once per scrape for the gauges that show them', async () => {
    let reads = 0;
    let checkReads = 0;
    let failed = 2;
    const metrics = new SinkMetrics({
      backlog: () => 0,
      publishLagSeconds: () => 0,
      quarantined: () => 0,
      lastPublishSeconds: () => 0,
      bodyBytesInFlight: () => 0,
      openConnections: () => 0,
      syncRuns: () => {
        reads += 1;
        return { lastSuccessSeconds: 1_795_000_000, failed, lastFailed: true };
      },
      dataChecks: () => {
        checkReads += 1;
        return [
          {
            check: 'campaign_posts_counted',
            segment: 'all',
            status: 'failed',
            checked: 5,
            failing: 1,
            failingCampaigns: 1,
            campaigns: ['5001'],
          },
        ];
      },
    });
    const first = await metrics.scrape();
    expect(reads).toBe(1);
    expect(checkReads).toBe(1);
    expect(first).toMatch(/^cw_data_check_failing\{check="campaign_posts_counted",segment="all"\} 1$/m);
    expect(first).toMatch(
      /^cw_data_check_failing_campaign\{check="campaign_posts_counted",segment="all",campaign_id="5001"\} 1$/m,
    );
    expect(first).toMatch(/^cw_sync_last_success_timestamp_seconds 1795000000$/m);
    expect(first).toMatch(/^cw_sync_failed_runs 2$/m);
    expect(first).toMatch(/^cw_sync_last_run_failed 1$/m);
    failed = 3;
    const second = await metrics.scrape();
    expect(reads).toBe(2);
    expect(checkReads).toBe(2);
    expect(second).toMatch(/^cw_sync_failed_runs 3$/m);
  });
});
