import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cloneDays, datesAfter } from '../../bench/lake-history.js';
import { sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { lakePath } from '../../src/warehouse/lake/index.js';
import { liveFile, liveFiles } from '../helpers/lake-files.js';
import { queryRows as rows } from '../helpers/query-rows.js';
import { type ReadOnlyCatalog, readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

const POSTS = 20;
const count = async (catalog: ReadOnlyCatalog, where: string) =>
  Number((await rows(catalog.connection, `select count(*) from post_metrics where ${where}`))[0]![0]);

describe("a question on a fact table's recent dates", () => {
  const data = removableTempDir('cw-lake-pruning-');
  let held: ReadOnlyCatalog | undefined;
  afterAll(() => {
    held?.close();
    data.remove();
  });

  it('opens only the files whose period can hold them; a held connection sees the next publish', async () => {
    const dir = data.dir;
    await stageAndPublish(dir, '2025-12-01', ['all'], { posts: POSTS });
    cloneDays(dir, '2025-12-01', datesAfter('2025-12-01', 75)); // to 2026-02-14
    expect([...liveFiles(dir).keys()].sort()).toEqual([
      '2025~all',
      '2026-01~all',
      '2026-02-11~all',
      '2026-02-12~all',
      '2026-02-13~all',
      '2026-02-14~all',
      '2026-02-D1~all',
    ]);
    held = await readOnlyCatalog(dir);
    expect(await count(held, 'true')).toBe(76 * POSTS);
    // The folders' last_date is in no file (DuckDB would add it to a `select *` of one by path).
    const files = sqlString(`${lakePath(dir)}/post_metrics/last_date=*/*.parquet`);
    expect(
      await rows(held.connection, `select file_name from parquet_schema(${files}) where name = 'last_date'`),
    ).toEqual([]);

    // The files of periods ending before 2026-02-11 become unreadable: a question on later
    // dates (`=`, `>`, `>=`: the filters DuckDB 1.5 turns into one on the folders' last_date)
    // still answers, so it never opened them; one that needs them fails on them.
    for (const label of ['2025~all', '2026-01~all', '2026-02-D1~all'])
      writeFileSync(liveFile(dir, label), 'not a Parquet file');
    expect(await count(held, "snapshot_date = '2026-02-13'")).toBe(POSTS);
    expect(await count(held, "snapshot_date > '2026-02-14'::date - 3")).toBe(3 * POSTS);
    expect(await count(held, "snapshot_date >= '2026-02-11' and segment = 'all'")).toBe(4 * POSTS);
    expect(
      await rows(
        held.connection,
        "select snapshot_date::varchar, count(*)::integer from post_metrics where snapshot_date >= '2026-02-13' group by 1 order by 1",
      ),
    ).toEqual([
      ['2026-02-13', POSTS],
      ['2026-02-14', POSTS],
    ]);
    await expect(count(held, "snapshot_date = '2026-02-10'")).rejects.toThrow(/2026-02-D1~all/);

    // The next day's publish, seen through the same connection.
    await stageAndPublish(dir, '2026-02-15', ['all'], { runId: 'r2', posts: 7 });
    expect(await count(held, "snapshot_date = '2026-02-15'")).toBe(7);
    expect(await count(held, "snapshot_date >= '2026-02-14'")).toBe(POSTS + 7);
  }, 300_000);
});
