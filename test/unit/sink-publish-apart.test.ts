import { describe, expect, it } from 'vitest';
import { MAX_PUBLISHES_APART, publishApart, type Suspect } from '../../src/sink/publish-apart.js';

/** Steps over an in-memory inbox: a publish fails while `fails(ids)` says so. */
function stepsOf(fails: (ids: readonly number[]) => Error | undefined, whole = (_: unknown) => false) {
  const log = { published: [] as number[][], watermark: 0, setAside: [] as number[], attempts: 0 };
  return {
    log,
    steps: {
      publish: async (ids: readonly number[]) => {
        log.attempts += 1;
        const error = fails(ids);
        if (error) throw error;
        log.published.push([...ids]);
        return { deliveries: ids.length, documents: ids.length };
      },
      published: (lastId: number, held: readonly Suspect[]) => {
        for (const suspect of held) log.setAside.push(suspect.deliveryId);
        log.watermark = lastId;
      },
      setAside: (suspect: Suspect) => {
        log.setAside.push(suspect.deliveryId);
      },
      isWhole: whole,
    },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const poison =
  (...bad: number[]) =>
  (ids: readonly number[]) =>
    ids.some((id) => bad.includes(id)) ? new Error(`bad ${ids.find((id) => bad.includes(id))}`) : undefined;

describe('publishApart', () => {
  it('sets aside the one delivery that fails, publishes every other in order, in about 2 log2(n) publishes', async () => {
    const { steps, log } = stepsOf(poison(700));
    const result = await publishApart(range(1, 1000), new Error('bad 700'), steps);
    expect(log.setAside).toEqual([700]);
    expect(log.published.flat()).toEqual(range(1, 1000).filter((id) => id !== 700));
    expect(log.watermark).toBe(1000);
    expect(result).toMatchObject({ deliveries: 999, complete: true });
    expect(log.attempts).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(1000)));
  });

  it('holds a suspect found before any success until a later publish succeeds, then sets it aside with it', async () => {
    const { steps, log } = stepsOf(poison(1));
    await publishApart(range(1, 8), new Error('bad 1'), steps);
    expect(log.setAside).toEqual([1]);
    expect(log.published.flat()).toEqual(range(2, 8));
  });

  it('sets nothing aside when nothing publishes: the place fails, not a delivery', async () => {
    const everything = new Error('unknown trouble');
    const { steps, log } = stepsOf(() => everything);
    await expect(publishApart(range(1, 20_000), everything, steps)).rejects.toBe(everything);
    expect(log.setAside).toEqual([]);
    expect(log.watermark).toBe(0);
    // A path down the halves and a little more, not 2n publishes.
    expect(log.attempts).toBeLessThanOrEqual(Math.ceil(Math.log2(20_000)) + 3);
  });

  it('sets nothing aside when the last delivery fails alone and nothing publishes (no proof the place works)', async () => {
    const { steps, log } = stepsOf(poison(1));
    await expect(publishApart([1], new Error('bad 1'), steps)).rejects.toThrow('bad 1');
    expect(log.setAside).toEqual([]);
  });

  it('stops at once on a failure of the place met on the way, keeping what was done', async () => {
    const full = new Error('no space left on device');
    let publishes = 0;
    const { steps, log } = stepsOf(
      (ids) => (ids.includes(5) ? new Error('bad 5') : ++publishes > 1 ? full : undefined),
      (error) => error === full,
    );
    await expect(publishApart(range(1, 16), new Error('bad 5'), steps)).rejects.toBe(full);
    expect(log.published).toEqual([[1, 2, 3, 4]]);
    expect(log.watermark).toBe(4);
    // 5 failed alone after 1-4 published: set aside; the disk then filled, and 6-16 wait.
    expect(log.setAside).toEqual([5]);
  });

  it('finds several bad deliveries, within a budget of publishes per cycle', async () => {
    const { steps, log } = stepsOf(poison(3, 9, 14));
    const result = await publishApart(range(1, 16), new Error('bad'), steps);
    expect(log.setAside).toEqual([3, 9, 14]);
    expect(result.complete).toBe(true);
    const many = range(1, 64).map((i) => i * 300);
    const crowded = stepsOf(poison(...many));
    const partial = await publishApart(range(1, 20_000), new Error('bad'), crowded.steps);
    expect(partial.complete).toBe(false);
    expect(crowded.log.attempts).toBe(MAX_PUBLISHES_APART);
    expect(crowded.log.setAside.length).toBeGreaterThan(0);
    expect(crowded.log.published.flat().every((id) => !many.includes(id))).toBe(true);
  });
});
