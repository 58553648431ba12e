import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerQuery } from '../../src/cli/query-command.js';
import { UserError } from '../../src/util/user-error.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** Runs `query ...args` as the CLI would and returns what it printed. */
async function runQuery(args: string[]): Promise<string> {
  const program = new Command('campaign-warehouse').exitOverride();
  registerQuery(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'campaign-warehouse', 'query', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('campaign-warehouse query', () => {
  const data = removableTempDir('cw-warehouse-');
  beforeAll(async () => {
    await stageAndPublish(data.dir, '2026-11-20');
  });
  afterAll(() => data.remove());

  it('prints a table by default', async () => {
    const out = await runQuery([
      'select campaign_id, num_posts from campaign_metrics',
      '--data-dir',
      data.dir,
    ]);
    expect(out).toContain('campaign_id');
    expect(out).toMatch(/c1\s*│\s*4/);
    expect(out).toContain('(1 row)');
  });

  it('prints CSV and JSON', async () => {
    const sql = "select 'a,b' as text, 2 as n, date '2026-11-20' as d, null as missing";
    expect(await runQuery([sql, '--format', 'csv', '--data-dir', data.dir])).toBe(
      'text,n,d,missing\r\n"a,b",2,2026-11-20,\r\n',
    );
    expect(JSON.parse(await runQuery([sql, '--format', 'json', '--data-dir', data.dir]))).toEqual([
      { text: 'a,b', n: 2, d: '2026-11-20', missing: null },
    ]);
  });

  it('reads CW_DATA_DIR when --data-dir is absent', async () => {
    vi.stubEnv('CW_DATA_DIR', data.dir);
    try {
      expect(await runQuery(['select count(*) as n from sync_runs', '--format', 'json'])).toContain('"n": 1');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('turns a SQL error, a write and a missing warehouse into one-line user errors', async () => {
    await expect(runQuery(['select nope from campaign_metrics', '--data-dir', data.dir])).rejects.toThrow(
      UserError,
    );
    await expect(runQuery(['select nope from campaign_metrics', '--data-dir', data.dir])).rejects.toThrow(
      /^query failed: [^\n]*$/,
    );
    await expect(runQuery(['delete from campaign_metrics', '--data-dir', data.dir])).rejects.toThrow(
      /query failed.*read-only/i,
    );
    await expect(runQuery(['select 1', '--data-dir', `${data.dir}/nothing`])).rejects.toThrow(
      /no warehouse yet at .*campaign-warehouse sync/,
    );
    await expect(runQuery(['select 1', '--format', 'xml', '--data-dir', data.dir])).rejects.toThrow(
      /--format/,
    );
  });
});
