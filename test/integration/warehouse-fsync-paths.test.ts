/** fsyncPaths: a publish's fsyncs issued together, off the event loop (LakeTransaction.commit). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FSYNC_CONCURRENCY, fsyncPaths } from '../../src/warehouse/lake/testing.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('fsyncPaths', () => {
  it('fsyncs files and folders, more of them than it keeps open at once', async () => {
    const dir = tempDir('cw-fsync-');
    const paths: string[] = [];
    for (let i = 0; i < FSYNC_CONCURRENCY * 2 + 1; i += 1) {
      const folder = join(dir, `v${i}`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'part.parquet'), `rows ${i}`);
      paths.push(join(folder, 'part.parquet'), folder);
    }
    await expect(fsyncPaths([...paths, dir])).resolves.toBeUndefined();
  });

  it('rejects with the error of a path it cannot open, naming it', async () => {
    const dir = tempDir('cw-fsync-');
    writeFileSync(join(dir, 'a.parquet'), 'a');
    const missing = join(dir, 'gone.parquet');
    await expect(fsyncPaths([join(dir, 'a.parquet'), missing, dir])).rejects.toMatchObject({
      code: 'ENOENT',
      path: missing,
    });
  });
});
