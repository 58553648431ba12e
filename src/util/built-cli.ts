import { join } from 'node:path';
import { OPTIMIZE_FOR_SIZE_CHOICE } from './favor-memory.js';
import { packageRoot } from './package-root.js';

/** The bundled `campaign-warehouse` executable (`npm ci` builds it): what child processes run. */
export const BUILT_CLI = join(packageRoot(), 'dist', 'cli', 'main.js');

/** Node 20's young generation: two 16 MB semi-spaces. */
const SEMI_SPACE_FLAG = '--max-semi-space-size=16';

/**
 * The Node flags a CLI process started by this package gets, before BUILT_CLI. Node 24's V8
 * lets the young generation grow to 128 MB (Node 20: 32 MB); 16 MB semi-spaces keep Node 20's
 * bound (a sync also sizes V8's heap for memory itself: favor-memory.ts). V8 sizes it when
 * the process starts, so the flag must be on the child's command line. An operator's own
 * `--max-semi-space-size` (in NODE_OPTIONS or on this process's command line) wins, and its
 * `--(no-)optimize-for-size` on this process's command line is passed on.
 */
export function cliNodeFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): string[] {
  const chosen = [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) =>
    /^--max[-_]semi[-_]space[-_]size(=|$)/.test(flag),
  );
  // The operator's own choice for V8's heap (favor-memory.ts), which NODE_OPTIONS cannot carry.
  const sizeChoice = execArgv.filter((flag) => OPTIMIZE_FOR_SIZE_CHOICE.test(flag));
  return [...(chosen ? [] : [SEMI_SPACE_FLAG]), ...sizeChoice];
}
