import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUCKDB_ALLOCATOR_CONF } from '../../src/warehouse/allocator-settings.js';

const KEY = 'DUCKDB_JE_MALLOC_CONF';

describe('duckdb-allocator', () => {
  const saved = process.env[KEY];
  afterEach(() => {
    if (saved === undefined) delete process.env[KEY];
    else process.env[KEY] = saved;
    vi.resetModules();
  });

  it('returns freed pages at once unless the operator configured the allocator', async () => {
    delete process.env[KEY];
    vi.resetModules();
    await import('../../src/warehouse/duckdb-allocator.js');
    expect(process.env[KEY]).toBe(DUCKDB_ALLOCATOR_CONF);
    expect(DUCKDB_ALLOCATOR_CONF).toMatch(/dirty_decay_ms:0/);

    process.env[KEY] = 'dirty_decay_ms:5000';
    vi.resetModules();
    await import('../../src/warehouse/duckdb-allocator.js');
    expect(process.env[KEY]).toBe('dirty_decay_ms:5000');
  });

  it("takes the faster setting for the demo (small syncs), DuckDB's own for readers, and an operator's still wins", async () => {
    const argv = process.argv;
    try {
      for (const [args, expected] of [
        [['demo', '--data-dir', '/tmp/x'], 'dirty_decay_ms:10000,muzzy_decay_ms:10000'],
        [['--data-dir', '/tmp/x', 'sync'], 'dirty_decay_ms:0,muzzy_decay_ms:0'],
        [['sync', 'demo'], 'dirty_decay_ms:0,muzzy_decay_ms:0'],
        // Readers keep DuckDB's own setting, as an analyst's client does.
        [['query', 'select 1'], undefined],
        [['report', '--data-dir', '/tmp/x'], undefined],
        [['status'], undefined],
      ] as const) {
        delete process.env[KEY];
        process.argv = [argv[0]!, 'main.js', ...args];
        vi.resetModules();
        await import('../../src/warehouse/duckdb-allocator.js');
        expect({ args, conf: process.env[KEY] }).toEqual({ args, conf: expected });
      }
      process.env[KEY] = 'dirty_decay_ms:5000';
      vi.resetModules();
      await import('../../src/warehouse/duckdb-allocator.js');
      expect(process.env[KEY]).toBe('dirty_decay_ms:5000');
    } finally {
      process.argv = argv;
    }
  });
});
