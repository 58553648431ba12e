import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/** The built `campaign-warehouse` executable (`npm ci` builds it): what child processes run. */
export const BUILT_CLI = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
