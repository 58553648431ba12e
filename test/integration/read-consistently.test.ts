/**
 * This tool's reads never read part of a table (read-consistently.ts): a publish that replaces
 * files marks the lake while it swaps links (lake-generation.ts), and a query that overlapped
 * it runs again.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GENERATION_FILE,
  isSwapping,
  lakePath,
  readGeneration,
  swappingLinks,
} from '../../src/warehouse/lake/testing.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { readConsistently, SWAPPED_RETRIES } from '../../src/warehouse/read/read-consistently.js';
import { tempDir } from '../helpers/temp-dir.js';
import { deliveryBatch } from '../helpers/warehouse-stream-rows.js';

const DAY = '2026-11-21';
const batch = (n: number) => deliveryBatch(n, 1, DAY);

describe('the lake generation: a query that overlapped a replacing publish runs again', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('a publish that replaces files names itself in the lake, marked as swapping only while it swaps', async () => {
    const dataDir = tempDir('cw-generation-');
    const lake = lakePath(dataDir);
    await publishStream(dataDir, batch(1), { mergeFanout: 2 });
    // A new day's first part replaces nothing.
    expect(readGeneration(lake).text).toBe('');
    // At fanout 2 the second publish merges the first part: its version lacks that part's file.
    await publishStream(dataDir, batch(2), { mergeFanout: 2 });
    const merged = readGeneration(lake);
    expect(merged.text).toMatch(/^[0-9a-z]{15}$/);
    expect(merged.swappingPid).toBeUndefined();
    // A publish that merges nothing only adds a part: the generation stays.
    await publishStream(dataDir, batch(3), { mergeFanout: Number.POSITIVE_INFINITY });
    expect(readGeneration(lake).text).toBe(merged.text);

    const during = swappingLinks(lake, 'g1', () => readGeneration(lake));
    expect(during).toMatchObject({ text: `g1 ${process.pid}`, swappingPid: process.pid });
    expect(isSwapping(during)).toBe(true);
    expect(readGeneration(lake).text).toBe('g1');
    // Marked as swapped even when the swaps fail, and the swaps' error is the one thrown.
    expect(() =>
      swappingLinks(lake, 'g2', () => {
        throw new Error('disk gone');
      }),
    ).toThrow('disk gone');
    expect(readGeneration(lake).text).toBe('g2');
  });

  it('runs a query again when a publish replaced files while it ran, not when one only added', async () => {
    const dataDir = tempDir('cw-generation-');
    await publishStream(dataDir, batch(1), { mergeFanout: 2 });
    let runs = 0;
    const answer = await readConsistently(lakePath(dataDir), async () => {
      runs += 1;
      if (runs === 1) await publishStream(dataDir, batch(2), { mergeFanout: 2 }); // merges
      return runs;
    });
    expect(answer).toBe(2);
    expect(runs).toBe(2);

    runs = 0;
    await readConsistently(lakePath(dataDir), async () => {
      runs += 1;
      if (runs === 1) await publishStream(dataDir, batch(3), { mergeFanout: Number.POSITIVE_INFINITY }); // adds a part
    });
    expect(runs).toBe(1);
  });

  it('runs a query again that failed while a publish replaced files; throws at once otherwise', async () => {
    const lake = join(tempDir('cw-generation-'), 'lake');
    mkdirSync(lake);
    let runs = 0;
    const failingOnce = async () => {
      runs += 1;
      if (runs === 1) {
        swappingLinks(lake, 'g1', () => undefined);
        throw new Error('IO Error: No files found that match the pattern');
      }
      return 'answer';
    };
    expect(await readConsistently(lake, failingOnce)).toBe('answer');
    expect(runs).toBe(2);
    const error = new Error('Binder Error: no_such_table');
    runs = 0;
    await expect(
      readConsistently(lake, async () => {
        runs += 1;
        throw error;
      }),
    ).rejects.toBe(error);
    expect(runs).toBe(1);
  });

  it('starts a query only once a live publish has finished swapping; ignores a dead one', async () => {
    const lake = join(tempDir('cw-generation-'), 'lake');
    mkdirSync(lake);
    const publisher = spawn('sleep', ['60']);
    children.push(publisher);
    writeFileSync(join(lake, GENERATION_FILE), `g1 ${publisher.pid}\n`);
    let swapsDone = false;
    setTimeout(() => {
      writeFileSync(join(lake, GENERATION_FILE), 'g1\n');
      swapsDone = true;
    }, 50);
    expect(await readConsistently(lake, async () => swapsDone)).toBe(true);

    // A dead publish's mark, or one older than a minute, is not waited for.
    const dead = spawnSync('true').pid;
    const stale = join(lake, GENERATION_FILE);
    for (const mark of [`g2 ${dead}`, `g3 ${publisher.pid}`]) {
      writeFileSync(stale, `${mark}\n`);
      if (mark.startsWith('g3'))
        utimesSync(stale, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
      let runs = 0;
      expect(
        await readConsistently(lake, async () => {
          runs += 1;
          return 'answer';
        }),
      ).toBe('answer');
      expect(runs).toBe(1);
    }
    // Not waited for, the mark counts: the same id without it is a change, and runs the query again.
    writeFileSync(stale, `g4 ${dead}\n`);
    let runs = 0;
    await readConsistently(lake, async () => {
      runs += 1;
      if (runs === 1) writeFileSync(stale, 'g4\n');
    });
    expect(runs).toBe(2);
  });

  it('gives up with a clear error when publishes replaced files under every run', async () => {
    const lake = join(tempDir('cw-generation-'), 'lake');
    mkdirSync(lake);
    let runs = 0;
    await expect(
      readConsistently(lake, async () => {
        runs += 1;
        swappingLinks(lake, `g${runs}`, () => undefined);
      }),
    ).rejects.toThrow(/publishes replaced files under 11 runs of this query in a row; run it again/);
    expect(runs).toBe(SWAPPED_RETRIES + 1);
  });
});
