import { afterEach, describe, expect, it, vi } from 'vitest';

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
    const { DUCKDB_ALLOCATOR_CONF } = await import('../../src/warehouse/duckdb-allocator.js');
    expect(process.env[KEY]).toBe(DUCKDB_ALLOCATOR_CONF);
    expect(DUCKDB_ALLOCATOR_CONF).toMatch(/dirty_decay_ms:0/);

    process.env[KEY] = 'dirty_decay_ms:5000';
    vi.resetModules();
    await import('../../src/warehouse/duckdb-allocator.js');
    expect(process.env[KEY]).toBe('dirty_decay_ms:5000');
  });
});
