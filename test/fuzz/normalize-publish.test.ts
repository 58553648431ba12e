/**
 * Fuzz: whatever the normalizers return for a misbehaving API's replies publishes, and reads
 * back through DuckDB. Each case stages a small sync's rows through the real staging file and
 * appender, publishes them into a fresh warehouse, then reads every table it staged (`select *`)
 * and every raw JSON column (`json_valid`, `raw::json`). Few cases: each opens DuckDB and writes
 * a lake.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publishSync } from '../../src/warehouse/publish-sync.js';
import { withReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleRun } from '../helpers/warehouse-rows.js';
import { normalizeReplies, SNAPSHOT, syncReplies } from './drive-pipeline.js';
import { FUZZ_TIMEOUT_MS, publishRuns } from './fuzz-params.js';
import { isWellFormed } from './is-well-formed.js';
import { unlessTypedError } from './typed-errors.js';

describe('fuzz: normalized rows through the warehouse', () => {
  it(
    'publishes what the normalizers return, and every table and raw JSON reads back',
    async () => {
      await fc.assert(
        fc.asyncProperty(syncReplies, async (replies) => {
          const out = await unlessTypedError(() => normalizeReplies(replies));
          if (!out) return;
          const data = removableTempDir('cw-fuzz-publish-');
          try {
            const staging = await openStaging(data.dir, `${SNAPSHOT}-fuzz`);
            const staged = new Map<string, number>();
            for (const tableRows of out.rows) {
              await staging.append(tableRows);
              for (const [table, rows] of Object.entries(tableRows))
                staged.set(table, (staged.get(table) ?? 0) + (rows?.length ?? 0));
            }
            await staging.close();
            await publishSync(data.dir, {
              stagingPath: staging.path,
              snapshotDate: SNAPSHOT,
              segments: out.segments,
              run: sampleRun('fuzz', SNAPSHOT),
            });
            await withReadOnly(data.dir, async (query) => {
              for (const [table, count] of staged) {
                const all = await query(`select * from "${table}"`);
                // Published rows are deduplicated on the table's key: never more than staged, some when any.
                expect(all.rows.length, table).toBeLessThanOrEqual(count);
                expect(all.rows.length > 0, table).toBe(count > 0);
                for (const row of all.rows)
                  for (const value of row)
                    if (typeof value === 'string')
                      expect(isWellFormed(value), `${table}: ${value}`).toBe(true);
                if (!all.columns.includes('raw')) continue;
                const bad = await query(`select count(*) filter (where not json_valid(raw)) from "${table}"`);
                expect(bad.rows[0]![0], `${table}.raw`).toBe(0);
                await query(`select raw::json, json_keys(raw::json) from "${table}"`);
              }
            });
          } finally {
            data.remove();
          }
        }),
        publishRuns(4),
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
