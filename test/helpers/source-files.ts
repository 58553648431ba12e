import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript files under `dir`, recursively: what tests that read the code itself scan. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}
