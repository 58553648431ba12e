import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { sourceFiles } from '../helpers/source-files.js';

describe('drizzle-orm', () => {
  it('is never imported as an ES module (Node 24 loads that build in 1.2 s and 160 MB): src/state/drizzle.ts requires it', () => {
    const root = packageRoot();
    const direct = [join(root, 'src'), join(root, 'test'), join(root, 'bench')]
      .flatMap(sourceFiles)
      // Type-only imports and exports are erased from the JavaScript: they load nothing.
      .filter((file) =>
        /^\s*(import|export)\s(?!type\b)[^;]*?from\s+'drizzle-orm[^']*'/m.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(root, file));
    expect(direct).toEqual([]);
  });

  it('hands out the CommonJS build, the one every query and table comes from', async () => {
    const { eq, sqliteTable, text } = await import('../../src/state/drizzle.js');
    const table = sqliteTable('t', { id: text('id') });
    expect(eq(table.id, 'x').queryChunks.length).toBeGreaterThan(0);
    const cjs = Object.keys((await import('node:module')).createRequire(import.meta.url).cache).filter(
      (path) => path.includes('/node_modules/drizzle-orm/'),
    );
    expect(cjs).toContain(join(packageRoot(), 'node_modules/drizzle-orm/index.cjs'));
  });
});
