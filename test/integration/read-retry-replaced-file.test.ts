import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lakePath } from '../../src/warehouse/lake/index.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { withReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { queryUserSql } from '../../src/warehouse/read/query-user-sql.js';
import {
  isReplacedLakeFile,
  REPLACED_FILE_RETRIES,
  retryReplacedFile,
} from '../../src/warehouse/read/retry-replaced-file.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { deliveryBatch } from '../helpers/warehouse-stream-rows.js';

const DAY = '2026-11-21';
const batch = (n: number) => deliveryBatch(n, 10, DAY);

describe("this tool's reads run a query again when a publish replaced a file it had listed", () => {
  const data = tempDirEachTest('cw-read-retry-');

  /**
   * After the first (publishFirst), publishes batches up to `publishes`, each merging parts
   * (fanout 2), while `read` counts today's documents in a loop; returns the counts, in order.
   */
  const publishFirst = () => publishStream(data.dir, batch(1), { mergeFanout: 2 });
  async function countWhileMerging(publishes: number, read: () => Promise<number>): Promise<number[]> {
    let published = 1;
    const counts: number[] = [];
    const reads = (async () => {
      while (published < publishes) counts.push(await read());
    })();
    for (let n = 2; n <= publishes; n += 1) {
      await publishStream(data.dir, batch(n), { mergeFanout: 2 });
      published = n;
    }
    await reads;
    expect(counts.length).toBeGreaterThan(0);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    return counts;
  }

  it('queries run in a loop while every publish merges parts never fail and see whole publishes', async () => {
    await publishFirst();
    await withReadOnly(data.dir, (query) =>
      countWhileMerging(40, async () => {
        const row = (
          await query('select count(*), (select sum(documents) from stream_deliveries) from stream_documents')
        ).rows[0]!;
        expect(Number(row[0]) % 10).toBe(0);
        expect(Number(row[1]) % 10).toBe(0);
        return Number(row[0]);
      }),
    );
    const files = readdirSync(join(lakePath(data.dir), 'stream_documents', `received_date=${DAY}`));
    expect(files.some((name) => /^t[1-9]/.test(name))).toBe(true);
  });

  it("a person's SQL (query) run in a loop while every publish merges parts never fails and sees whole publishes", async () => {
    await publishFirst();
    const counts = await countWhileMerging(30, async () => {
      const { rows } = await queryUserSql(data.dir, 'select count(*) from stream_documents');
      return Number(rows[0]![0]);
    });
    expect(counts.every((count) => count > 0 && count % 10 === 0)).toBe(true);
  });

  it('runs again only for a missing file inside the lake, and at most REPLACED_FILE_RETRIES times', async () => {
    const lake = lakePath(data.dir);
    // The message DuckDB gave a reader whose query was planned across a merge (CI, 2026-11-25).
    const missing = (path: string) =>
      new Error(`IO Error: Cannot open file "${path}": No such file or directory`);
    const inside = join(lake, 'stream_deliveries', `received_date=${DAY}`, 'p.0mwwm29op446b44.parquet');
    let attempts = 0;
    const failing = (error: Error, times: number) => async () => {
      attempts += 1;
      if (attempts <= times) throw error;
      return 'answer';
    };
    await expect(retryReplacedFile(lake, failing(missing(inside), 2))).resolves.toBe('answer');
    expect(attempts).toBe(3);
    attempts = 0;
    await expect(retryReplacedFile(lake, failing(missing(inside), 99))).rejects.toThrow(/Cannot open file/);
    expect(attempts).toBe(REPLACED_FILE_RETRIES + 1);
    for (const error of [
      missing(join(data.dir, 'elsewhere.parquet')),
      new Error('Binder Error: no_such_table'),
    ]) {
      attempts = 0;
      await expect(retryReplacedFile(lake, failing(error, 1))).rejects.toBe(error);
      expect(attempts).toBe(1);
    }
    expect(isReplacedLakeFile(missing(inside), lake)).toBe(true);
    expect(isReplacedLakeFile(missing(`${lake}-other/x.parquet`), lake)).toBe(false);
  });
});
