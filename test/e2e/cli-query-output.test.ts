/**
 * `query`'s output through the built CLI: the table fitted to a width (--width, COLUMNS, a
 * terminal's), long cells cut with …, a rule under the header only, records when the columns
 * cannot be read within the width, every value whole when piped; --json with JSON columns as
 * JSON and integers beyond 2^53 exact.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../../src/util/built-cli.js';
import { displayWidth } from '../../src/warehouse/read/display-width.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { lines, run } from '../helpers/run-cli.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

const LONG = 'x'.repeat(300);
/** Three rows: a long cell, a number, a newline and a tab in a value, a CJK name. */
const ROWS = `select * from (values
  (1, 'short', 'Campaign 1'),
  (22, '${LONG}', 'line one\nline two\tend'),
  (333, 'mid', '日本語のキャンペーン名前です')
) t(n, long_text, name) order by n`;
/** Ten columns of 20 characters: at 80 columns, no layout keeps each readable. */
const WIDE = `select ${Array.from({ length: 10 }, (_, i) => `'${String(i).repeat(20)}' as column_${i}`).join(', ')}`;

describe('query output (built CLI)', () => {
  const data = removableTempDir('cw-query-output-');
  const query = (sql: string, more: string[] = [], env: NodeJS.ProcessEnv = {}) =>
    run(['query', sql, '--data-dir', data.dir, ...more], env);

  beforeAll(async () => {
    ensureBuiltCli();
    await stageAndPublish(data.dir, '2026-11-20');
  }, 120_000);
  afterAll(() => data.remove());

  it('piped with no width: every value whole, one line per row, a rule under the header only', async () => {
    const out = await query(ROWS);
    expect(out.code, out.stderr).toBe(0);
    const shown = out.stdout.split('\n').filter(Boolean);
    expect(shown).toHaveLength(7); // header, rule, 3 rows (one on two lines), count
    expect(shown[0]).toMatch(/^\s+n │ long_text\s+│ name$/);
    expect(shown[1]).toMatch(/^─+┼─+┼─+$/);
    expect(shown.slice(2).some((line) => /^[─┼├┤]+$/.test(line))).toBe(false);
    expect(shown[3]).toContain(LONG);
    // A value of two lines takes two, the second marked as going on; the tab is shown escaped.
    expect(shown[3]).toMatch(/ │ line one$/);
    expect(shown[4]).toMatch(/^ {4} ┊ {301} ┊ line two\\tend$/);
    expect(shown[2]).toMatch(/^\s+1 │/); // numbers aligned right
    expect(shown[5]).toMatch(/^ 333 │/);
    expect(shown[6]).toBe('(3 rows)');

    // A query plan is a text of many lines: each its own.
    const plan = lines((await query('explain select count(*) from campaign_metrics')).stdout);
    expect(plan[2]).toMatch(/^ physical_plan │ ┌─+┐$/);
    expect(plan[3]).toMatch(/^ {14} ┊ │ .+ │$/);
  });

  it('COLUMNS or --width fits each line, long cells cut with …, and says so', async () => {
    for (const [more, env, width] of [
      [[], { COLUMNS: '60' }, 60],
      [['--width', '50'], { COLUMNS: '200' }, 50],
    ] as const) {
      const out = await query(ROWS, [...more], env);
      expect(out.code, out.stderr).toBe(0);
      const shown = lines(out.stdout);
      expect(shown[1]).toMatch(/^─+┼─+┼─+$/); // still a table at this width
      for (const line of shown.slice(0, -1)) expect(displayWidth(line), line).toBeLessThan(width); // no line fills the last column
      expect(shown[3]).toMatch(/ │ x+… │ /);
      expect(shown[5]).toMatch(/日本語.*…$/);
      expect(shown.at(-1)).toBe(`(3 rows; cut to ${width} columns, --width 0 for whole values)`);
    }
    const whole = await query(ROWS, ['--width', '0'], { COLUMNS: '40' });
    expect(whole.stdout).toContain(LONG);
  });

  it('columns that cannot each keep 12 characters in the width: one record per row', async () => {
    const out = await query(`${WIDE} union all ${WIDE}`, ['--width', '80']);
    expect(out.code, out.stderr).toBe(0);
    const shown = lines(out.stdout);
    expect(shown[0]).toMatch(/^─\[ row 1 \]─+$/);
    expect(shown[1]).toBe(`column_0 │ ${'0'.repeat(20)}`);
    expect(shown[11]).toMatch(/^─\[ row 2 \]─+$/);
    expect(shown.at(-1)).toBe('(2 rows)');
    for (const line of shown) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // Wide enough, the same columns are a table; --format records asks for records at any width.
    expect(lines((await query(WIDE, ['--width', '250'])).stdout)[1]).toMatch(/^─+(┼─+){9}$/);
    const records = await query(ROWS, ['--format', 'records', '--width', '40']);
    expect(lines(records.stdout)[0]).toMatch(/^─\[ row 1 \]─+$/);
    expect(records.stdout).toMatch(/^long_text │ x+…$/m);
    for (const line of lines(records.stdout).slice(0, -1)) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });

  it.skipIf(!existsSync('/usr/bin/script'))(
    "on a terminal, the terminal's width (util-linux script gives the CLI a pseudo-terminal)",
    async () => {
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith('CW_') && name !== 'COLUMNS'),
      );
      const command = `stty cols 64 rows 40; ${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} query ${shellQuote(ROWS)} --data-dir ${shellQuote(data.dir)}`;
      const output = await new Promise<string>((resolve, reject) =>
        execFile('script', ['-qec', command, '/dev/null'], { env, timeout: 60_000 }, (error, stdout) =>
          error ? reject(error) : resolve(stdout),
        ),
      );
      // The column names are bold on a terminal.
      expect(output).toContain('\u001b[1m');
      const shown = lines(stripVTControlCharacters(output).replaceAll('\r', ''));
      expect(shown.at(-1)).toMatch(/^\(3 rows; cut to 64 columns, --width 0 for whole values\)$/);
      for (const line of shown) expect(displayWidth(line), line).toBeLessThanOrEqual(64);
    },
    60_000,
  );

  it('--json: a JSON column as JSON, integers beyond 2^53 exact, the same as --format json', async () => {
    const sql = `select 9007199254740993::bigint as big, 7::bigint as small,
      '{"id": 12345678901234567891, "tags": [1, 2.5], "name": "é"}'::json as doc,
      null::json as none, raw from posts where post_id = 'p1'`;
    const out = await query(sql, ['--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/"big": 9007199254740993,/);
    expect(out.stdout).toMatch(/"id": 12345678901234567891,/);
    const [row] = JSON.parse(out.stdout) as Record<string, unknown>[];
    expect(row).toMatchObject({
      small: 7,
      doc: { tags: [1, 2.5], name: 'é' },
      none: null,
      raw: { id: 'p1' },
    });
    expect((await query(sql, ['--format', 'json'])).stdout).toBe(out.stdout);
    // The table shows the JSON text as it is stored, the big integer digit for digit.
    expect((await query(sql)).stdout).toMatch(/9007199254740993 │\s+7 │ \{"id": 12345678901234567891, /);
  });

  it('a bad --width, or --json beside another --format: exit 2, one line', async () => {
    const narrow = await query('select 1', ['--width', '5']);
    expect(narrow.code).toBe(2);
    expect(lines(narrow.stderr)).toEqual([
      expect.stringMatching(
        /--width <columns>' argument '5' is invalid\. expected 0 \(no limit\) or a number/,
      ),
    ]);
    const both = await query('select 1', ['--json', '--format', 'csv']);
    expect(both.code).toBe(2);
    expect(lines(both.stderr)).toEqual([
      'campaign-warehouse: --json and --format csv ask for two formats: give one',
    ]);
  });
});

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
