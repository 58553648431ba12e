import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The folder holding package.json: sql/ and other shipped files are found from here, so
 * the same code works from src/ (tests), from tsc's dist/src/ (benchmarks) and from the bundled
 * CLI's dist/cli/.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('campaign-warehouse: cannot find package.json above the running code');
    dir = parent;
  }
  cached = dir;
  return dir;
}
