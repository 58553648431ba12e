/**
 * The bundled CLI (build-cli.mjs) keeps the order src/warehouse/duckdb-allocator.ts needs: the
 * allocator's setting is made by what main.js loads at start, and DuckDB's native library only by
 * chunks a command loads later. Should a change of chunk layout pull DuckDB into the start, the
 * setting would come too late and no other test would see it (the suite sets the variable itself).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../../src/util/built-cli.js';

const DIR = dirname(BUILT_CLI);
const STATIC_IMPORT = /^import\s(?:[^;]*?\sfrom\s)?"\.\/([^"]+)";?$/gm;
const LAZY_IMPORT = /\bimport\("\.\/([^"]+)"\)/g;
const LOADS_DUCKDB = /(?:require|from)\s*\(?\s*"@duckdb\/node-bindings"/;

const text = (file: string) => readFileSync(join(DIR, file), 'utf8');

/** The files a module loads before it runs: itself and its static imports, recursively. */
function loadedAtStart(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, next] of text(file).matchAll(STATIC_IMPORT)) visit(next!);
  };
  visit(entry);
  return seen;
}

describe('the bundled CLI', () => {
  it("sets DuckDB's allocator at start and loads DuckDB only in what a command loads later", () => {
    const atStart = loadedAtStart('main.js');
    const startText = [...atStart].map(text).join('\n');
    expect(startText).toContain('DUCKDB_JE_MALLOC_CONF');
    expect([...atStart].filter((file) => LOADS_DUCKDB.test(text(file)))).toEqual([]);
    // Not vacuous: some lazily loaded part of a command does load DuckDB.
    const lazy = new Set(
      [...atStart].flatMap((file) => [...text(file).matchAll(LAZY_IMPORT)].map((m) => m[1]!)),
    );
    const later = new Set([...lazy].flatMap((file) => [...loadedAtStart(file)]));
    expect([...later].some((file) => LOADS_DUCKDB.test(text(file)))).toBe(true);
  });
});
