/**
 * This tool's reads see one whole publish (read-consistently.ts): a publish marks the lake while
 * it swaps links (lake-generation.ts), and a query that overlapped it runs again.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/normalize/rows.js';
import {
  GENERATION_FILE,
  isSwapping,
  lakePath,
  readGeneration,
  swappingLinks,
} from '../../src/warehouse/lake/index.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { readConsistently, SWAPPED_RETRIES } from '../../src/warehouse/read/read-consistently.js';
import type { StreamBatch } from '../../src/warehouse/types.js';
import { tempDir } from '../helpers/temp-dir.js';
import { streamDocument } from '../helpers/warehouse-stream-rows.js';

const DAY = '2026-11-21';
function batch(n: number): StreamBatch {
  const documents: Row[] = [streamDocument('h1', `d${n}`, `${DAY}T08:00:00Z`, `${DAY}T09:00:00Z`)];
  return {
    documents,
    deliveries: [
      { delivery_id: n, hook_id: 'h1', received_at: `${DAY}T09:00:00Z`, documents: 1, bytes: 100 },
    ],
    hooks: [],
  };
}

describe('the lake generation: a query that overlapped a publish runs again', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('each publish names itself in the lake, marked as swapping only while it swaps', async () => {
    const dataDir = tempDir('cw-generation-');
    const lake = lakePath(dataDir);
    await publishStream(dataDir, batch(1));
    const first = readGeneration(lake);
    expect(first.id).toMatch(/^[0-9a-z]{15}$/);
    expect(first.swappingPid).toBeUndefined();
    await publishStream(dataDir, batch(2));
    expect(readGeneration(lake).id).not.toBe(first.id);
    const during = swappingLinks(lake, 'g1', () => readGeneration(lake));
    expect(during).toEqual({ id: 'g1', swappingPid: process.pid });
    expect(isSwapping(during)).toBe(true);
    expect(readGeneration(lake)).toEqual({ id: 'g1' });
    // Marked as swapped even when the swaps fail.
    expect(() =>
      swappingLinks(lake, 'g2', () => {
        throw new Error('disk gone');
      }),
    ).toThrow('disk gone');
    expect(readGeneration(lake)).toEqual({ id: 'g2' });
  });

  it('runs a query again when a publish landed while it ran, and returns the later answer', async () => {
    const dataDir = tempDir('cw-generation-');
    await publishStream(dataDir, batch(1));
    let runs = 0;
    const answer = await readConsistently(lakePath(dataDir), async () => {
      runs += 1;
      if (runs === 1) await publishStream(dataDir, batch(2));
      return runs;
    });
    expect(answer).toBe(2);
    expect(runs).toBe(2);
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

    const dead = spawnSync('true').pid;
    writeFileSync(join(lake, GENERATION_FILE), `g2 ${dead}\n`);
    let runs = 0;
    expect(
      await readConsistently(lake, async () => {
        runs += 1;
        return 'answer';
      }),
    ).toBe('answer');
    expect(runs).toBe(1);
  });

  it('gives up with a clear error when every run overlapped a publish', async () => {
    const lake = join(tempDir('cw-generation-'), 'lake');
    mkdirSync(lake);
    let runs = 0;
    await expect(
      readConsistently(lake, async () => {
        runs += 1;
        swappingLinks(lake, `g${runs}`, () => undefined);
      }),
    ).rejects.toThrow(/the lake changed under 11 runs of this query in a row/);
    expect(runs).toBe(SWAPPED_RETRIES + 1);
  });
});
