/**
 * A lake poisoned by the release before text was made well formed (fixture:
 * test/fixtures/warehouse/lake-poisoned-surrogates.tar.gz, README beside it): its campaigns',
 * posts', influencers' and stream documents' files hold JSON with the escape of a lone
 * surrogate, which DuckDB refuses to read. The next publish, or `catalog rebuild`, rewrites
 * those files with the text repaired; every row stays, every other file is kept as it is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { publishRunRecord } from '../../src/warehouse/index.js';
import { JSON_CHECKED_FILE, labelOf, lakePath, linkedFiles } from '../../src/warehouse/lake/testing.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { run } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sampleRun } from '../helpers/warehouse-rows.js';

const FIXTURE = join('test', 'fixtures', 'warehouse', 'lake-poisoned-surrogates.tar.gz');
const FFFD = '\uFFFD';

/** The JSON column of each poisoned table, and where its files are. */
const POISONED = [
  { table: 'campaigns', column: 'raw', glob: 'campaigns/*.parquet' },
  { table: 'posts', column: 'raw', glob: 'posts/*.parquet' },
  { table: 'influencers', column: 'raw', glob: 'influencers/*.parquet' },
  { table: 'stream_documents', column: 'document', glob: 'stream_documents/received_date=*/*.parquet' },
] as const;

/** The data files (not the schema anchors) of the entity and stream tables, by table. */
function dataFiles(lake: string): Record<string, string[]> {
  const files: Record<string, string[]> = {};
  for (const table of ['campaigns', 'posts', 'influencers', 'workspaces', 'influencer_tags'])
    files[table] = linkedFiles(join(lake, table)).filter((name) => !name.startsWith('_'));
  files.stream_documents = linkedFiles(join(lake, 'stream_documents', 'received_date=2026-11-19')).slice();
  return files;
}

function extract(dir: string): string {
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', FIXTURE, '-C', dir]);
  return dir;
}

/** Reads a table's files as any other engine would: no catalog, no refresh, no healing. */
async function readFiles(dataDir: string, glob: string, column: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `select ${column}::varchar from read_parquet(${sqlString(join(lakePath(dataDir), glob))}, union_by_name = true)
        order by all`,
    );
    return reader.getRows().map((row) => String(row[0]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Rows per poisoned table: from the files (a count reads no JSON) or through the catalog's views. */
async function rowCounts(dataDir: string, from: 'files' | 'views'): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    for (const { table, glob } of POISONED) {
      if (from === 'views') {
        counts[table] = Number((await queryReadOnly(dataDir, `select count(*) from ${table}`)).rows[0]![0]);
        continue;
      }
      const files = `read_parquet(${sqlString(join(lakePath(dataDir), glob))}, union_by_name = true)`;
      counts[table] = Number(
        (await connection.runAndReadAll(`select count(*) from ${files}`)).getRows()[0]![0],
      );
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return counts;
}

/** Every JSON value of the poisoned tables, through the catalog's views, parsed back. */
async function jsonValues(dataDir: string): Promise<unknown[]> {
  const values: unknown[] = [];
  for (const { table, column } of POISONED) {
    const result = await queryReadOnly(dataDir, `select ${column}::varchar from ${table}`);
    for (const row of result.rows) values.push(JSON.parse(String(row[0])));
  }
  return values;
}

describe('healing a lake holding unreadable JSON', () => {
  beforeAll(() => {
    ensureBuiltCli();
  }, 900_000);

  it('the fixture is poisoned: DuckDB refuses every one of those tables', async () => {
    const dataDir = extract(tempDir('cw-heal-'));
    for (const { glob, column } of POISONED)
      await expect(readFiles(dataDir, glob, column)).rejects.toThrow(/Invalid JSON found in Parquet file/);
  });

  it('the next publish rewrites the broken files with U+FFFD, keeps every row and file else, once', async () => {
    const dataDir = extract(tempDir('cw-heal-'));
    const lake = lakePath(dataDir);
    const before = dataFiles(lake);
    const rows = await rowCounts(dataDir, 'files');
    expect(rows.campaigns).toBe(2);
    await publishRunRecord(dataDir, sampleRun('heal-test', '2026-11-19'));
    expect(existsSync(join(lake, JSON_CHECKED_FILE))).toBe(true);
    for (const { glob, column } of POISONED) {
      const values = await readFiles(dataDir, glob, column);
      expect(values.length).toBeGreaterThan(0);
      expect(values.join('\n')).not.toMatch(/\\u[dD][89a-fA-F]/);
    }
    // Only the broken files were rewritten (under new names, with their labels); the others are kept.
    const after = dataFiles(lake);
    for (const table of Object.keys(before)) {
      const poisoned = POISONED.some((p) => p.table === table);
      if (poisoned) expect(after[table]!.map(labelOf)).toEqual(before[table]!.map(labelOf));
      else expect(after[table], table).toEqual(before[table]);
    }
    expect(after.campaigns).not.toEqual(before.campaigns);
    expect(await rowCounts(dataDir, 'views')).toEqual(rows);
    const text = JSON.stringify(await jsonValues(dataDir));
    expect(text).toContain(`Camp${FFFD}aign 1`);
    expect(text).toContain(`lik${FFFD}es`);
    expect(text).toContain(`Bad ${FFFD} title`);
    const name = await queryReadOnly(dataDir, "select name from campaigns where campaign_id = '5000'");
    expect(name.rows[0]![0]).toBe(`Camp${FFFD}aign 1`);
    // Checked once: a later publish leaves the healed versions as they are.
    const campaigns = linkedFiles(join(lake, 'campaigns'));
    await publishRunRecord(dataDir, sampleRun('heal-test-2', '2026-11-19'));
    expect(linkedFiles(join(lake, 'campaigns'))).toEqual(campaigns);
  }, 120_000);

  it('catalog rebuild (the built CLI) heals it too, and every view reads', async () => {
    const dataDir = extract(tempDir('cw-heal-'));
    const rebuilt = await run(['catalog', 'rebuild', '--data-dir', dataDir]);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    for (const { glob, column } of POISONED) await readFiles(dataDir, glob, column);
    const raw = await run(['query', 'select raw from campaigns', '--data-dir', dataDir, '--format', 'json']);
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.stdout).toContain(`Camp${FFFD}aign 1`);
    const views = await queryReadOnly(
      dataDir,
      "select view_name from duckdb_views() where schema_name = 'main' and not internal order by 1",
    );
    expect(views.rows.length).toBeGreaterThan(10);
    for (const [view] of views.rows) await queryReadOnly(dataDir, `select * from "${String(view)}"`);
  }, 300_000);
});
