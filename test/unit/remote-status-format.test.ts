/** `status`'s lines about the remote lake: a remote with nothing yet, and one table current beside one behind. */
import { describe, expect, it } from 'vitest';
import { formatRemoteStatus, type RemoteTableStatus } from '../../src/cli/remote-status.js';

const table = (name: string, behind: boolean): RemoteTableStatus => ({
  table: name,
  version: 4,
  snapshotId: 123,
  committedAt: '2026-11-27T22:41:07.512Z',
  behind,
  filesNotCommitted: behind ? 2 : 0,
  filesNotRemoved: behind ? 1 : 0,
  behindSince: behind ? '2026-11-28T22:40:55.001Z' : null,
});

describe('remote status text', () => {
  it('says plainly when a configured remote has nothing yet', () => {
    expect(
      formatRemoteStatus([{ url: 's3://lake/cw', configured: true, behind: false, tables: [] }]),
    ).toEqual(['remote s3://lake/cw: nothing committed, nothing to commit yet']);
  });

  it('lists each table with its snapshot and time, and what a lagging one waits for', () => {
    const lines = formatRemoteStatus([
      {
        url: 's3://lake/cw',
        configured: false,
        behind: true,
        tables: [table('campaign_metrics', false), table('post_metrics', true)],
      },
    ]);
    expect(lines).toEqual([
      'remote s3://lake/cw (not configured now): 1 of 2 tables behind the local lake (the next publish or `campaign-warehouse remote push` commits them), as this data directory last committed it',
      `  ${'campaign_metrics'.padEnd(30)} v4  snapshot 123  committed 2026-11-27T22:41:07.512Z  current`,
      `  ${'post_metrics'.padEnd(30)} v4  snapshot 123  committed 2026-11-27T22:41:07.512Z  behind since 2026-11-28T22:40:55.001Z: 2 file(s) to upload, 1 file(s) to remove`,
    ]);
  });
});
