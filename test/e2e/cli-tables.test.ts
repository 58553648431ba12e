/**
 * `campaign-warehouse tables` through the built CLI, on a published warehouse: the catalog's own
 * descriptions of its tables, views and columns (COMMENT ON), as text and JSON.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/contracts/table-registry.js';
import { listViews } from '../../src/warehouse/duckdb/create-views.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { run } from '../helpers/run-cli.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleStreamBatch } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

interface Listed {
  name: string;
  kind: 'table' | 'view';
  description: string;
}

describe('campaign-warehouse tables (built CLI)', () => {
  const data = removableTempDir('cw-cli-tables-');
  const dataDir = join(data.dir, 'data');

  beforeAll(async () => {
    ensureBuiltCli();
    // What a sync and the sink publish (in-process: the CLI's sync is covered by cli.test.ts).
    await stageAndPublish(dataDir, '2026-11-20', ['all', 'vip'], { campaigns: ['c1', 'c2'] });
    await publishStream(dataDir, sampleStreamBatch());
  }, 240_000);
  afterAll(() => data.remove());

  it('--json lists every table and view once, each with its description', async () => {
    const { code, stdout, stderr } = await run(['tables', '--json', '--data-dir', dataDir]);
    expect(code, stderr).toBe(0);
    const listed = JSON.parse(stdout) as Listed[];
    const tables = listed.filter((o) => o.kind === 'table').map((o) => o.name);
    expect(tables.sort()).toEqual([...Object.keys(TABLES), 'schema_migrations'].sort());
    const views = listed.filter((o) => o.kind === 'view').map((o) => o.name);
    for (const view of listViews()) expect(views).toContain(view.name);
    expect(views).toContain('latest_post_metrics');
    // Nothing internal: no lake_latest schema's views among them.
    expect(
      views.filter((name) => !name.startsWith('latest_') && !listViews().some((v) => v.name === name)),
    ).toEqual([]);
    expect(listed.filter((o) => o.description.length < 20)).toEqual([]);
    expect(listed.find((o) => o.name === 'network_breakdown')?.description).toMatch(/share/);
  });

  it('text: a line per table and view, its description beside it', async () => {
    const { code, stdout } = await run(['tables', '--data-dir', dataDir]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^name\s+kind\s+description$/m);
    expect(stdout).toMatch(/^campaign_metrics\s+table\s+Campaign level/m);
    expect(stdout).toMatch(/^influencer_leaderboard\s+view\s+Influencers ranked/m);
    expect(stdout).toContain('`campaign-warehouse tables <name>`');
  });

  it('<name> --json: the columns with their types and descriptions, as the catalog holds them', async () => {
    const { code, stdout, stderr } = await run([
      'tables',
      'campaign_metrics',
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(code, stderr).toBe(0);
    const table = JSON.parse(stdout) as Listed & {
      columns: { name: string; type: string; description: string }[];
    };
    expect(table).toMatchObject({ name: 'campaign_metrics', kind: 'table' });
    expect(table.columns.map((c) => c.name)).toEqual([
      'snapshot_date',
      'segment',
      'campaign_id',
      'num_posts',
      'num_influencers',
      'total_engagement',
      'engagement_rate',
      'total_reach',
      'total_emv',
    ]);
    expect(table.columns.find((c) => c.name === 'snapshot_date')).toMatchObject({ type: 'DATE' });
    expect(table.columns.find((c) => c.name === 'total_reach')?.description).toMatch(/NOT the sum/);
    expect(table.columns.filter((c) => c.description === '')).toEqual([]);
  });

  it('<name> as text: the description, then a line per column (type, description)', async () => {
    const { code, stdout } = await run(['tables', 'Network_Breakdown', '--data-dir', dataDir]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('network_breakdown (view)');
    expect(stdout).toMatch(/^share_of_posts\s+DOUBLE\s+the network's share/m);
    expect(stdout).toMatch(/^reach\s+BIGINT\s+the reach of the campaign posts on this network/m);
  });

  it('an unknown name: exit 2, one line naming it and what it may have meant', async () => {
    const { code, stdout, stderr } = await run(['tables', 'campaign_metric', '--data-dir', dataDir]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/no table or view named "campaign_metric".*campaign_metrics/);
  });

  it('no warehouse yet: exit 2, says to sync first', async () => {
    const { code, stderr } = await run(['tables', '--data-dir', join(data.dir, 'empty')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no warehouse yet.*sync/);
  });
});
