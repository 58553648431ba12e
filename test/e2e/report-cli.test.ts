/**
 * `campaign-warehouse report` as a user runs it (the built CLI, a child process per run):
 * the path it wrote on stdout, and one line naming the bad value for each bad option. The demo's
 * report (npm start) is checked with the README's walkthrough (cli-first-contact.test.ts).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { lines, run } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

describe('campaign-warehouse report (built CLI)', () => {
  let dataDir: string;

  beforeAll(async () => {
    ensureBuiltCli();
    dataDir = tempDir('cw-report-cli-');
    await stageAndPublish(dataDir, '2026-11-20', ['all', 'vip'], { campaigns: ['c1', 'c2'] });
  }, 120_000);

  it('writes <data-dir>/report.html by default (CW_DATA_DIR too) and prints its path', async () => {
    const { code, stdout, stderr } = await run(['report'], { CW_DATA_DIR: dataDir });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(lines(stdout)).toEqual([join(dataDir, 'report.html')]);
    expect(existsSync(join(dataDir, 'report.html'))).toBe(true);
    const out = join(tempDir('cw-report-out-'), 'vip.html');
    const narrow = await run([
      'report',
      '--data-dir',
      dataDir,
      '--out',
      out,
      '--segment',
      'vip',
      '--campaign',
      'c2',
      '--days',
      '7',
    ]);
    expect(narrow.code).toBe(0);
    expect(lines(narrow.stdout)).toEqual([out]);
  });

  it.each([
    [['--days', '0'], '--days must be a positive integer (1 to 36500), not "0"'],
    [['--days', '2.5'], '--days must be a positive integer (1 to 36500), not "2.5"'],
    [['--days', 'week'], '--days must be a positive integer (1 to 36500), not "week"'],
    [['--segment', 'nope'], 'unknown segment "nope": the warehouse has "all", "vip"'],
    [['--campaign', 'c1', '--campaign', 'zz<9>'], 'unknown campaign id "zz<9>"'],
    [
      ['--out', '/nonexistent-dir/r.html'],
      '--out /nonexistent-dir/r.html: cannot write there (its folder does not exist)',
    ],
  ])('report %j: exit 2 and one line naming the value', async (args, message) => {
    const { code, stdout, stderr } = await run(['report', '--data-dir', dataDir, ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(lines(stderr)).toEqual([`campaign-warehouse: ${message}`]);
  });

  it('refuses an --out that is a folder, and leaves nothing behind', async () => {
    const folder = tempDir('cw-report-folder-');
    mkdirSync(join(folder, 'r.html'));
    const { code, stderr } = await run(['report', '--data-dir', dataDir, '--out', join(folder, 'r.html')]);
    expect(code).toBe(2);
    expect(lines(stderr)).toEqual([
      `campaign-warehouse: --out ${join(folder, 'r.html')}: is a directory; name the HTML file to write`,
    ]);
    expect(readdirSync(folder)).toEqual(['r.html']);
  });

  it('without a warehouse: one line saying to sync first, nothing written', async () => {
    const empty = tempDir('cw-report-empty-');
    const { code, stderr } = await run(['report', '--data-dir', empty]);
    expect(code).toBe(2);
    expect(lines(stderr)).toEqual([
      `campaign-warehouse: no warehouse yet at ${join(empty, 'warehouse.duckdb')}: run \`campaign-warehouse sync\` first`,
    ]);
    expect(readdirSync(empty)).toEqual([]);
  });
});
