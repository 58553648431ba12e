/** The Node flags child CLI processes start with (built-cli.ts): Node 20's young generation unless the operator chose one. */
import { describe, expect, it } from 'vitest';
import { cliNodeFlags } from '../../src/util/built-cli.js';

describe('cliNodeFlags', () => {
  it('gives a child 16 MB semi-spaces by default', () => {
    expect(cliNodeFlags([], '')).toEqual(['--max-semi-space-size=16']);
    expect(cliNodeFlags(['--enable-source-maps'], '--max-old-space-size=2048')).toEqual([
      '--max-semi-space-size=16',
    ]);
  });

  it("keeps the operator's own size, from NODE_OPTIONS or node's command line", () => {
    expect(cliNodeFlags([], '--max-old-space-size=2048 --max-semi-space-size=64')).toEqual([]);
    expect(cliNodeFlags(['--max_semi_space_size=8'], '')).toEqual([]);
    expect(cliNodeFlags(['--max-semi-space-size', '32'], '')).toEqual([]);
  });

  it("passes on the operator's --(no-)optimize-for-size, which NODE_OPTIONS cannot carry", () => {
    expect(cliNodeFlags(['--no-optimize-for-size'], '')).toEqual([
      '--max-semi-space-size=16',
      '--no-optimize-for-size',
    ]);
    expect(cliNodeFlags(['--optimize_for_size', '--max-semi-space-size=8'], '')).toEqual([
      '--optimize_for_size',
    ]);
  });
});
