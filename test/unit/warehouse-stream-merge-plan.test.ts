import { describe, expect, it } from 'vitest';
import { planStreamMerge, streamTier } from '../../src/warehouse/lake/testing.js';

const part = (n: number) => `p.${String(n).padStart(12, '0')}.parquet`;
const tier = (k: number, n: number) => `t${k}.${String(n).padStart(12, '0')}.parquet`;

describe('intra-day merging of a stream partition (planStreamMerge)', () => {
  it('reads a file tier from its name and leaves compacted days and anchors alone', () => {
    expect(streamTier(part(1))).toBe(0);
    expect(streamTier(tier(3, 1))).toBe(3);
    expect(streamTier('c.000000000abc.parquet')).toBeUndefined();
    expect(streamTier('_schema.000000000abc.parquet')).toBeUndefined();
    expect(streamTier('t0.000000000abc.parquet')).toBeUndefined();
  });

  it('merges nothing until the part being published makes `fanout` parts', () => {
    expect(planStreamMerge([1, 2].map(part), 4)).toEqual({ files: [], tier: 0 });
    expect(planStreamMerge([1, 2, 3].map(part), 4)).toEqual({ files: [1, 2, 3].map(part), tier: 1 });
    expect(planStreamMerge([1, 2, 3].map(part), Number.POSITIVE_INFINITY).files).toEqual([]);
    expect(() => planStreamMerge([part(1)], 1)).toThrow(/fanout must be 2 or more, not 1/);
  });

  it('cascades in one merge when the merged file would fill the next tier', () => {
    const files = [tier(1, 10), tier(1, 11), tier(1, 12), tier(2, 5), part(20), part(21), part(22)];
    expect(planStreamMerge(files, 4)).toEqual({
      files: [part(20), part(21), part(22), tier(1, 10), tier(1, 11), tier(1, 12)].sort(),
      tier: 2,
    });
    // The compacted file of a day that got a late part is not a tier: never merged here.
    expect(planStreamMerge(['c.000000000001.parquet', part(1)], 2)).toEqual({ files: [part(1)], tier: 1 });
  });

  it('keeps a day of 2,880 publishes at a few files per tier', () => {
    let files: string[] = [];
    let most = 0;
    for (let n = 0; n < 2_880; n += 1) {
      const plan = planStreamMerge(files, 8);
      files = files.filter((name) => !plan.files.includes(name));
      if (plan.files.length) files.push(tier(plan.tier, n));
      files.push(part(n));
      most = Math.max(most, files.length);
    }
    expect(most).toBeLessThanOrEqual(4 * 7);
    expect(files.length).toBeLessThan(20);
  });
});
