/** The CLI as users run it (dist/, built by `npm ci`'s prepare step: `npm run build`), rebuilt when sources are newer. */

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_CLI } from '../../src/util/built-cli.js';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureBuiltCli(): string {
  const sources = Math.max(
    newestMtime(join(process.cwd(), 'src')),
    newestMtime(join(process.cwd(), 'pipelines')),
    statSync(join(process.cwd(), 'build-cli.mjs')).mtimeMs,
    // The bundle holds the dependencies' code too.
    statSync(join(process.cwd(), 'package-lock.json')).mtimeMs,
  );
  if (!existsSync(BUILT_CLI) || statSync(BUILT_CLI).mtimeMs < sources) {
    // The package's own build (tsc, then the bundle), as `npm ci` runs it.
    execFileSync('npm', ['run', '--silent', 'build']);
  }
  return BUILT_CLI;
}
