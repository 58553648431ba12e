import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import Table from 'cli-table3';
import { normalizeInfluencers, normalizePosts } from '../src/normalize/index.js';
import type { Row, TableRows } from '../src/normalize/rows.js';
import { applyMigrations } from '../src/warehouse/duckdb/apply-migrations.js';
import { openDatabase } from '../src/warehouse/duckdb/open-database.js';
import { columnKind, converterFor, toDuckDBValue } from '../src/warehouse/duckdb/to-duckdb-value.js';
import { sqlIdentifier, sqlString } from '../src/warehouse/duckdb/warehouse-paths.js';
import { openStaging } from '../src/warehouse/staging/open-staging.js';
import { type CampaignPages, generatePages } from './load-pages.js';
import { compareChunkWriters } from './load-writers.js';

/** Defaults: 60 campaigns x 2,200 posts x 200 influencers, about 1.04M warehouse rows. */
const DEFAULT_CAMPAIGNS = 60;
/** `--writers` holds every converted row in memory: 10 campaigns, about 170k rows, by default. */
const DEFAULT_WRITERS_CAMPAIGNS = 10;
const DEFAULT_POSTS_PER_CAMPAIGN = 2_200;
const DEFAULT_INFLUENCERS_PER_CAMPAIGN = 200;
/** Rows loaded the naive way: enough for a steady rate, few enough to finish in seconds. */
const DEFAULT_NAIVE_ROWS = 20_000;
const SNAPSHOT_DATE = '2026-11-20';
const SEEN_AT = '2026-11-20T21:30:00.000Z';

/** The normalizers the bench runs: the project's own (src/normalize). */
const NORMALIZERS = { name: 'src/normalize', posts: normalizePosts, influencers: normalizeInfluencers };
type Normalizers = typeof NORMALIZERS;

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`bench load: --${name} must be a positive number`);
  return value;
}

/** Every normalized page, in order (regenerated on demand: never all rows in memory at once). */
function* normalizedPages(pages: readonly CampaignPages[], normalizers: Normalizers): Generator<TableRows> {
  for (const campaign of pages) {
    const ctx = {
      snapshotDate: SNAPSHOT_DATE,
      segment: 'all',
      seenAt: SEEN_AT,
      campaignId: campaign.campaignId,
    };
    for (const page of campaign.posts) yield normalizers.posts(page, ctx);
    for (const page of campaign.influencers) yield normalizers.influencers(page, ctx);
  }
}

function countRows(rows: TableRows): number {
  let n = 0;
  for (const tableRows of Object.values(rows)) n += tableRows?.length ?? 0;
  return n;
}

export async function runLoadBench(args: string[]): Promise<Record<string, number>> {
  const writersOnly = args.includes('--writers');
  const campaigns = option(args, 'campaigns', writersOnly ? DEFAULT_WRITERS_CAMPAIGNS : DEFAULT_CAMPAIGNS);
  const postsPerCampaign = option(args, 'posts-per-campaign', DEFAULT_POSTS_PER_CAMPAIGN);
  const influencersPerCampaign = option(args, 'influencers-per-campaign', DEFAULT_INFLUENCERS_PER_CAMPAIGN);
  const naiveRows = option(args, 'naive-rows', DEFAULT_NAIVE_ROWS);
  const normalizers = NORMALIZERS;
  const pages = generatePages(campaigns, postsPerCampaign, influencersPerCampaign);
  if (writersOnly) return await runWritersOnly(pages, normalizers, option(args, 'rounds', 6));
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-load-'));
  try {
    // (i) normalize + load through the StagingWriter.
    let rssPeak = process.memoryUsage().rss;
    const staging = await openStaging(dir, 'bench');
    let rows = 0;
    const started = performance.now();
    for (const pageRows of normalizedPages(pages, normalizers)) {
      rows += countRows(pageRows);
      await staging.append(pageRows);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    await staging.close();
    const appenderSeconds = (performance.now() - started) / 1000;

    // The normalizers alone, to tell their share of (i) from the load's.
    const normalizeStarted = performance.now();
    for (const pageRows of normalizedPages(pages, normalizers)) countRows(pageRows);
    const normalizeSeconds = (performance.now() - normalizeStarted) / 1000;

    // (ii) DuckDB's own read_json of the same rows as NDJSON (files written untimed).
    const files = writeNdjson(dir, pages, normalizers);
    const readJsonSeconds = await timeReadJson(join(dir, 'read-json.duckdb'), files);

    // (iii) row-by-row prepared INSERT of the first rows (the naive way).
    const naive = await timeNaiveInsert(join(dir, 'naive.duckdb'), pages, normalizers, naiveRows);

    const figures = {
      rows,
      appender_seconds: round(appenderSeconds),
      appender_rows_per_s: Math.round(rows / appenderSeconds),
      normalize_only_seconds: round(normalizeSeconds),
      load_only_rows_per_s: Math.round(rows / Math.max(appenderSeconds - normalizeSeconds, 1e-3)),
      read_json_seconds: round(readJsonSeconds),
      read_json_rows_per_s: Math.round(rows / readJsonSeconds),
      naive_rows: naive.rows,
      naive_rows_per_s: Math.round(naive.rows / naive.seconds),
      appender_vs_read_json: round(readJsonSeconds / appenderSeconds),
      appender_vs_naive: round(naive.seconds / naive.rows / (appenderSeconds / rows)),
      rss_peak_mb: Math.round(rssPeak / 1024 / 1024),
    };
    const table = new Table({ head: ['measure', 'value'], style: { head: [], border: [] } });
    table.push(['normalizers', normalizers.name]);
    for (const [key, value] of Object.entries(figures)) table.push([key, value.toLocaleString('en')]);
    process.stdout.write(`${table.toString()}\n${JSON.stringify(figures)}\n`);
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `--writers [--rounds N]`: only the chunk writers, ours against @duckdb/node-api's (load-writers.ts). */
async function runWritersOnly(
  pages: readonly CampaignPages[],
  normalizers: Normalizers,
  rounds: number,
): Promise<Record<string, number>> {
  const figures = await compareChunkWriters(normalizedPages(pages, normalizers), rounds);
  const table = new Table({ head: ['measure', 'value'], style: { head: [], border: [] } });
  for (const [key, value] of Object.entries(figures)) table.push([key, value.toLocaleString('en')]);
  process.stdout.write(`${table.toString()}\n${JSON.stringify(figures)}\n`);
  return figures;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function writeNdjson(
  dir: string,
  pages: readonly CampaignPages[],
  normalizers: Normalizers,
): Map<string, string> {
  const files = new Map<string, string>();
  for (const pageRows of normalizedPages(pages, normalizers)) {
    for (const [table, tableRows] of Object.entries(pageRows)) {
      if (!tableRows || tableRows.length === 0) continue;
      const file = join(dir, `${table}.ndjson`);
      files.set(table, file);
      appendFileSync(file, `${tableRows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    }
  }
  return files;
}

async function columnsOf(connection: DuckDBConnection, table: string): Promise<[string, string][]> {
  const reader = await connection.runAndReadAll(
    "select column_name, data_type from duckdb_columns() where table_name = $1 and schema_name = 'main' order by column_index",
    [table],
  );
  return reader.getRows().map((row) => [String(row[0]), String(row[1])]);
}

async function timeReadJson(path: string, files: Map<string, string>): Promise<number> {
  const db = await openDatabase(path);
  try {
    await applyMigrations(db.connection);
    const started = performance.now();
    for (const [table, file] of files) {
      const columns = (await columnsOf(db.connection, table)).map(
        ([name, type]) => `${sqlString(name)}: ${sqlString(type)}`,
      );
      await db.connection.run(
        `insert into ${sqlIdentifier(table)} by name select * from read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${columns.join(', ')}})`,
      );
    }
    await db.connection.run('checkpoint');
    return (performance.now() - started) / 1000;
  } finally {
    db.close();
  }
}

async function timeNaiveInsert(
  path: string,
  pages: readonly CampaignPages[],
  normalizers: Normalizers,
  limit: number,
): Promise<{ rows: number; seconds: number }> {
  const db = await openDatabase(path);
  try {
    await applyMigrations(db.connection);
    const batches: [string, Row[]][] = [];
    let taken = 0;
    for (const pageRows of normalizedPages(pages, normalizers)) {
      for (const [table, tableRows] of Object.entries(pageRows)) {
        if (taken >= limit || !tableRows?.length) continue;
        const slice = tableRows.slice(0, limit - taken);
        batches.push([table, slice]);
        taken += slice.length;
      }
      if (taken >= limit) break;
    }
    const started = performance.now();
    for (const [table, tableRows] of batches) {
      const columns = await columnsOf(db.connection, table);
      const statement = await db.connection.prepare(
        `insert into ${sqlIdentifier(table)} (${columns.map(([name]) => sqlIdentifier(name)).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      );
      const kinds = columns.map((_, i) => columnKind(statement.parameterType(i + 1)));
      const converters = kinds.map((kind) => converterFor(kind));
      for (const row of tableRows) {
        statement.bind(
          columns.map(([name], i): DuckDBValue => {
            const value = row[name];
            return value === undefined || value === null
              ? null
              : toDuckDBValue(kinds[i]!, converters[i]!(value));
          }),
        );
        await statement.run();
      }
    }
    return { rows: taken, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
  }
}
