/**
 * docs/deploy.md's recipe for a BI connector that cannot open a file read-only (Cube's): an
 * in-memory database that attaches the catalog READ_ONLY. Run as written in the doc (its SQL
 * block, the path replaced), in a process of its own, against a real warehouse: the service
 * publishes, rebuilds its catalog and answers `query` beside it, where a read-write handle
 * locks them out.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCatalog } from '../../src/warehouse/lake/index.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { type Child, spawnHelper } from '../helpers/warehouse-child.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** The data directory the doc's examples use. */
const DOC_DATA_DIR = '/var/lib/campaign-warehouse';

/** docs/deploy.md's SQL block that attaches the catalog, for the data directory `dataDir`. */
function recipe(dataDir: string): string {
  const blocks = [...readFileSync('docs/deploy.md', 'utf8').matchAll(/```sql\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );
  const attach = blocks.filter((sql) => /\bATTACH\b/i.test(sql));
  expect(attach, 'one ```sql block with the ATTACH').toHaveLength(1);
  expect(attach[0]).toContain(DOC_DATA_DIR);
  return attach[0]!.replaceAll(DOC_DATA_DIR, dataDir);
}

async function ask(child: Child): Promise<{ rows?: number; error?: string }> {
  child.process.stdin.write('query\n');
  return JSON.parse(await child.nextLine());
}

const count = async (dir: string) =>
  (await queryReadOnly(dir, 'select count(*) from campaign_metrics')).rows[0]![0];

describe("docs/deploy.md: a connector's in-memory database attaching the catalog READ_ONLY", () => {
  const data = removableTempDir('cw-bi-attach-');
  beforeAll(async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all'], { campaigns: ['c1', 'c2'] });
  });
  afterAll(() => data.remove());

  it('answers, and the service publishes, rebuilds its catalog and reads beside it', async () => {
    const bi = spawnHelper('bi-attach-child.mjs', ['attach', recipe(data.dir)]);
    try {
      expect(JSON.parse(await bi.nextLine())).toEqual({ ready: true });
      expect(await ask(bi)).toEqual({ rows: 2 });

      // A publish while the connector queries: no lock refuses it, and the publish shows at its
      // next query. A query planned in the instant a swap replaces files may fail with DuckDB's
      // `Cannot open file` (docs/lake.md, "Other readers"; the same query again succeeds): that
      // one failure is the documented window, any other is not.
      const publishing = stageAndPublish(data.dir, '2026-11-20', ['all'], {
        runId: 'r2',
        campaigns: ['c1', 'c2'],
      });
      let done = false;
      void publishing.finally(() => {
        done = true;
      });
      const during: { rows?: number; error?: string }[] = [];
      while (!done) during.push(await ask(bi));
      await publishing;
      const outsideWindow = (error: string) => !/^IO Error: Cannot open file ".*\.parquet"/.test(error);
      expect(during.filter((answer) => answer.error !== undefined && outsideWindow(answer.error))).toEqual(
        [],
      );
      expect(await ask(bi)).toEqual({ rows: 4 });

      // `query` and `catalog rebuild` beside it.
      expect(await count(data.dir)).toBe(4);
      expect(await refreshCatalog(data.dir, { force: true })).toBe('rebuilt');
      expect(await count(data.dir)).toBe(4);
      expect(await ask(bi)).toEqual({ rows: 4 });
    } finally {
      bi.process.stdin.write('exit\n');
      await bi.exited;
    }
  });

  it('where a read-write handle on the file locks `query` out (what the recipe avoids)', async () => {
    const rw = spawnHelper('bi-attach-child.mjs', ['rw', `${data.dir}/warehouse.duckdb`]);
    try {
      expect(JSON.parse(await rw.nextLine())).toEqual({ ready: true });
      await expect(count(data.dir)).rejects.toThrow(/lock/i);
    } finally {
      rw.process.stdin.write('exit\n');
      await rw.exited;
    }
  });
});
