import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

const made: string[] = [];

/**
 * Removes the folders tempDir made; the setup file remove-temp-dirs.ts calls it after each test
 * file's last test. (A hook registered here would run for the first file only where a worker
 * runs several files in one module graph, as the unit, integration and e2e tiers do.)
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh folder in the temp dir, removed after the test file's last test. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh folder in the temp dir that the caller removes itself, with remove(). */
export function removableTempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh folder for each test of the calling describe block (or file), removed after that
 * test: registers the beforeEach and afterEach. Read `dir` inside a test or hook.
 */
export function tempDirEachTest(prefix: string): { readonly dir: string } {
  let current: { dir: string; remove: () => void } | undefined;
  beforeEach(() => {
    current = removableTempDir(prefix);
  });
  afterEach(() => {
    current?.remove();
    current = undefined;
  });
  return {
    get dir() {
      if (!current) throw new Error(`tempDirEachTest(${prefix}): read outside a test`);
      return current.dir;
    },
  };
}
