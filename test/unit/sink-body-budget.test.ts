import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BodyBudget, budgetForBody, SMALL_BODY_BYTES } from '../../src/sink/body-budget.js';
import { ThrottledNotice } from '../../src/sink/throttled-notice.js';

const MiB = 1024 * 1024;

describe('BodyBudget', () => {
  it('keeps a quarter for small bodies: large ones stop at three quarters, small ones fill the rest', () => {
    const budget = new BodyBudget(8 * MiB);
    const large = [budget.claim(), budget.claim(), budget.claim(), budget.claim()];
    expect(large.map((c) => c.grow(2 * MiB))).toEqual([true, true, true, false]);
    expect(budget.heldBytes).toBe(6 * MiB);
    const small = Array.from({ length: 3 }, () => budget.claim());
    expect(small.map((c) => c.grow(SMALL_BODY_BYTES))).toEqual([true, true, false]);
    expect(budget.heldBytes).toBe(8 * MiB);
    large[0]?.release();
    expect(budget.claim().grow(2 * MiB)).toBe(true);
  });

  it('moves a chunked body to the large share when its running count crosses the small size', () => {
    const budget = new BodyBudget(4 * MiB); // large share: 3 MiB
    const held = budget.claim();
    expect(held.grow(2 * MiB)).toBe(true);
    const chunked = budget.claim();
    expect(chunked.grow(SMALL_BODY_BYTES)).toBe(true);
    // One byte more makes it large: 2 MiB + 1 MiB + 1 byte does not fit the 3 MiB share.
    expect(chunked.grow(1)).toBe(false);
    held.release();
    expect(chunked.grow(1)).toBe(true);
    chunked.release();
    chunked.release(); // idempotent
    expect(budget.heldBytes).toBe(0);
    expect(budget.claim().grow(3 * MiB)).toBe(true);
  });

  it('the smallest budget holds one body at the limit beside the reserve', () => {
    const limit = 10 * MiB;
    const budget = new BodyBudget(budgetForBody(limit));
    expect(budget.claim().grow(limit)).toBe(true);
    expect(new BodyBudget(budgetForBody(limit) - 2).claim().grow(limit)).toBe(false);
  });
});

describe('ThrottledNotice', () => {
  it('logs a kind at most once per interval, saying how many events the line stands for', () => {
    const lines: { msg: string; events: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    let now = 0;
    const notice = new ThrottledNotice(
      logger,
      { a: 'kind a', b: 'kind b' },
      { intervalMs: 60_000, now: () => now },
    );
    for (let i = 0; i < 1_000; i++) notice.note('a');
    notice.note('b');
    now = 59_999;
    notice.note('a');
    expect(lines.map((l) => [l.msg, l.events])).toEqual([
      ['kind a', 1],
      ['kind b', 1],
    ]);
    now = 60_000;
    notice.note('a');
    expect(lines.at(-1)).toMatchObject({ msg: 'kind a', events: 1_001 });
  });
});
