/** The V8 flag a sync sets on itself (favor-memory.ts): unless the operator's node command line chose. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { favorMemoryOverSpeed, OPTIMIZE_FOR_SIZE } from '../../src/util/favor-memory.js';

describe('favorMemoryOverSpeed', () => {
  it('sets --optimize-for-size by default', () => {
    const set: string[] = [];
    expect(
      favorMemoryOverSpeed(['--enable-source-maps', '--max-semi-space-size=16'], (flag) => set.push(flag)),
    ).toBe(true);
    expect(set).toEqual(['--optimize-for-size']);
  });

  it("keeps the operator's own choice from node's command line", () => {
    for (const chosen of [
      '--optimize-for-size',
      '--no-optimize-for-size',
      '--nooptimize-for-size',
      '--optimize_for_size',
    ]) {
      const set: string[] = [];
      expect(favorMemoryOverSpeed([chosen], (flag) => set.push(flag))).toBe(false);
      expect(set).toEqual([]);
    }
  });

  it("is a flag this Node's V8 has", () => {
    // setFlagsFromString ignores a flag V8 does not know: check V8 lists it.
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(options).toContain(`${OPTIMIZE_FOR_SIZE} (`);
  });
});
