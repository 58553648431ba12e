import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveTargets, maintainLake, versionFiles } from '../../src/warehouse/lake/testing.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import type { StreamBatch } from '../../src/warehouse/types.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { streamDocument } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** Today (UTC): the upkeep neither compacts today's stream day nor consolidates a single day. */
const TODAY = new Date().toISOString().slice(0, 10);

function documents(prefix: string, count: number): StreamBatch {
  return {
    documents: Array.from({ length: count }, (_, i) =>
      streamDocument('h1', `${prefix}-${i}`, `${TODAY}T08:00:00Z`, `${TODAY}T09:00:00Z`),
    ),
    deliveries: [
      { delivery_id: 1, hook_id: 'h1', received_at: `${TODAY}T09:00:00Z`, documents: count, bytes: 1 },
    ],
    hooks: [],
  };
}

async function counts(dir: string): Promise<unknown[]> {
  const result = await queryReadOnly(
    dir,
    'select (select count(*) from post_metrics), (select count(*) from stream_documents), (select count(*) from latest_post_stats), (select count(*) from posts)',
  );
  return result.rows[0]!;
}

/** Every link of the lake (in lake/ and its folders of links) with the files of its version. */
function links(lake: string): Map<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  const add = (path: string) => {
    if (lstatSync(path).isSymbolicLink()) found.set(path, versionFiles(path));
  };
  for (const entry of readdirSync(lake)) {
    if (entry === '_versions') continue;
    const path = join(lake, entry);
    add(path);
    if (!lstatSync(path).isSymbolicLink() && statSync(path).isDirectory())
      for (const child of readdirSync(path)) add(join(path, child));
  }
  return found;
}

/** A version directory a publish wrote and was killed swapping in: `.swap-<vid>` beside `link`. */
function plantSwap(
  lake: string,
  table: string,
  versionName: string,
  link: string,
): { link: string; version: string } {
  const version = join(lake, '_versions', table, versionName);
  mkdirSync(version, { recursive: true });
  const old = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(version, old, old);
  const swap = join(dirname(link), `.swap-${versionName.split('.').pop()}`);
  symlinkSync(relative(dirname(link), version), swap);
  return { link: swap, version };
}

describe('what a crash leaves in the lake', () => {
  const data = tempDirEachTest('cw-lake-crash-');

  it("the upkeep removes a killed swap's links, then their versions; the live links and their files stay", async () => {
    await stageAndPublish(data.dir, TODAY, ['all', 'vip']);
    await publishStream(data.dir, documents('a', 10));
    const lake = join(data.dir, 'lake');
    const dayLink = readdirSync(join(lake, 'stream_documents'))[0]!;
    const stray = [
      plantSwap(lake, 'post_metrics', 'v.crash1', join(lake, 'post_metrics')),
      plantSwap(lake, 'stream_documents', `${TODAY}.crash2`, join(lake, 'stream_documents', dayLink)),
      plantSwap(lake, 'post_stats', 'latest.crash3', join(lake, '_latest', 'post_stats')),
    ];
    // A stray link is no table's link: its version is not live.
    const live = liveTargets(lake);
    for (const { version } of stray) expect(live.has(version)).toBe(false);
    const before = links(lake);
    for (const { link } of stray) before.delete(link);
    const rows = await counts(data.dir);

    await maintainLake(data.dir, { now: new Date(), retentionMs: 3_600_000 });

    for (const { link, version } of stray) {
      expect(() => lstatSync(link)).toThrow(/ENOENT/);
      expect(existsSync(version)).toBe(false);
    }
    expect(links(lake)).toEqual(before);
    for (const target of liveTargets(lake)) expect(existsSync(target)).toBe(true);
    expect(await counts(data.dir)).toEqual(rows);
  });

  it("the next publish removes a killed catalog write's temporary files; the catalog and the rest stay", async () => {
    await stageAndPublish(data.dir, '2026-11-20');
    const planted = [
      '.warehouse.publishing-catalog-99999-1.duckdb',
      '.warehouse.publishing-catalog-99999-1.duckdb.wal',
    ];
    for (const name of planted) writeFileSync(join(data.dir, name), 'left by a killed process');
    writeFileSync(join(data.dir, '.warehouse.notes'), 'not the catalog writer');
    const others = readdirSync(data.dir)
      .filter((name) => !planted.includes(name))
      .sort();
    const catalog = statSync(join(data.dir, 'warehouse.duckdb'));

    await stageAndPublish(data.dir, '2026-11-21', ['all'], { runId: 'r2' });

    expect(readdirSync(data.dir).sort()).toEqual(others);
    // A publish does not rewrite the catalog: the same file.
    expect(statSync(join(data.dir, 'warehouse.duckdb')).ino).toBe(catalog.ino);
    const dates = await queryReadOnly(data.dir, 'select count(distinct snapshot_date) from post_metrics');
    expect(Number(dates.rows[0]![0])).toBe(2);
  });
});
