/** `status` as text: honest on a new directory, deleted hooks counted rather than listed. */
import { describe, expect, it } from 'vitest';
import { formatStatus, type StatusReport } from '../../src/cli/status-report.js';

const hook = (hookId: string, deleted: boolean) => ({
  hookId,
  searchId: 1,
  searchType: 'social',
  status: deleted ? 'DELETED' : 'ACTIVE',
  targetUrl: `https://sink.example/hooks/${hookId}`,
  deleted,
  secretHeld: !deleted,
});

const base: StatusReport = {
  dataDir: '/d',
  warehouse: '/d/warehouse.duckdb',
  published: true,
  latestSnapshot: null,
  lastSucceededAt: null,
  rowCounts: {},
  runs: [],
  hooks: [],
  inbox: { backlog: 0, quarantined: 0, lastDelivery: null, lastPublish: null },
  olderSchema: [],
  dataChecks: null,
  newDrift: [],
  catalogStale: false,
};

describe('status text', () => {
  it('says there was no successful sync and no rows, instead of "finished never (UTC)" and an empty heading', () => {
    const text = formatStatus(base);
    expect(text).toContain('freshness: no successful sync yet\nrows: none yet\n');
    expect(text).not.toContain('never (UTC)');
  });

  it('shows times as ISO 8601 UTC, and lists live hooks only, counting the deleted', () => {
    const text = formatStatus({
      ...base,
      latestSnapshot: '2026-11-20',
      lastSucceededAt: '2026-11-20T22:40:00.000Z',
      rowCounts: { campaigns: 3 },
      hooks: [hook('live1', false), hook('gone1', true), hook('gone2', true)],
    });
    expect(text).toContain('last successful sync finished 2026-11-20T22:40:00.000Z\nrows:\n  campaigns');
    expect(text).toContain('hooks: (2 deleted not shown)\n  live1  search 1 (social)  ACTIVE  secret held');
    expect(text).not.toContain('gone1');
  });
});
