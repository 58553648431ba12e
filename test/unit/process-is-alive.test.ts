import { describe, expect, it } from 'vitest';
import { processIsAlive } from '../../src/util/process-is-alive.js';

/** Above Linux's largest pid_max (2^22): no process can have it. */
const NO_SUCH_PID = 2 ** 22 + 1;

describe('processIsAlive', () => {
  it('is true for a running process and false for an id no process has', () => {
    expect(processIsAlive(process.pid)).toBe(true);
    expect(processIsAlive(NO_SUCH_PID)).toBe(false);
  });
});
