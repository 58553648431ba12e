import { describe, expect, it } from 'vitest';
import {
  describeMigrations,
  describeView,
  sharedColumns,
} from '../../src/warehouse/duckdb/sql-descriptions.js';

const INIT = `-- 001: tables.
-- Shared columns (a column of this name, unless its table or view describes it):
--   snapshot_date: the date of the API refresh
--     the figures come from
--   campaign_id, influencer_id: an id

-- ---------------------------------------------------------------- facts
-- One row per campaign and day.
-- Key (snapshot_date, campaign_id).
create table campaign_metrics (
  snapshot_date date not null,
  campaign_id   varchar not null,  -- the campaign (key)
  total_reach   bigint,            -- NOT the sum
                                   -- of the networks' reach
  total_emv     double
);
`;

const LATER = `-- 002: a column.

-- What a later release adds.
alter table campaign_metrics add column saves bigint;
alter table campaign_metrics add column shares bigint; -- shares of the posts
`;

const VIEW = `-- network_breakdown: per campaign and network, its share
-- of the campaign.
-- Columns (key: snapshot_date, campaign_id, network):
--   share_of_posts: the network's share (0..1), so the shares
--     add up to 1
--   reach, emv: the network's own
-- Notes that describe nothing.

select 1
`;

describe('descriptions read from the SQL (src/warehouse/sql-descriptions.ts)', () => {
  it("a migration's table: the comment lines above it, its columns' trailing comments, continued", () => {
    const table = describeMigrations([INIT, LATER]).get('campaign_metrics')!;
    expect(table.text).toBe('One row per campaign and day. Key (snapshot_date, campaign_id).');
    expect(Object.fromEntries(table.columns)).toEqual({
      snapshot_date: '',
      campaign_id: 'the campaign (key)',
      total_reach: "NOT the sum of the networks' reach",
      total_emv: '',
      saves: 'What a later release adds.',
      shares: 'shares of the posts',
    });
  });

  it('a shared-columns block: one entry a name (or several), continued by deeper lines', () => {
    expect(Object.fromEntries(sharedColumns([INIT, LATER]))).toEqual({
      snapshot_date: 'the date of the API refresh the figures come from',
      campaign_id: 'an id',
      influencer_id: 'an id',
    });
  });

  it("a view: its first paragraph without its name, its Columns block's entries, not its notes", () => {
    const view = describeView('network_breakdown', VIEW);
    expect(view.text).toBe('Per campaign and network, its share of the campaign.');
    expect(Object.fromEntries(view.columns)).toEqual({
      share_of_posts: "the network's share (0..1), so the shares add up to 1",
      reach: "the network's own",
      emv: "the network's own",
    });
  });
});
