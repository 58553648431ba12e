import type { Command } from 'commander';
import { UserError } from '../util/user-error.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

/**
 * `campaign-warehouse catalog rebuild`: rewrites warehouse.duckdb (the views over the lake)
 * for the data directory where it is now, e.g. after moving or copying it; any run of sync,
 * sink or query does the same when it finds the catalog pointing elsewhere.
 */
export function registerCatalog(program: Command): void {
  program
    .command('catalog')
    .description('the catalog (warehouse.duckdb, views over the Parquet lake)')
    .command('rebuild')
    .description('rewrite warehouse.duckdb for the lake where it is now (after moving the data directory)')
    .option(...dataDirOption('folder of warehouse.duckdb and lake/'))
    .option(...CONFIG_OPTION)
    .action(async (options: { dataDir?: string; config?: string }) => {
      const { readerDataDir } = await import('../config/command-data-dir.js');
      const dataDir = readerDataDir(options);
      const { refreshCatalog } = await import('../warehouse/index.js');
      const { publishedPath } = await import('../warehouse/index.js');
      const change = await refreshCatalog(dataDir, { force: true });
      if (!change) throw new UserError(`no warehouse at ${publishedPath(dataDir)}: nothing to rebuild`);
      // 'rebuilt' is what this command does: said once; another change says what it found.
      process.stdout.write(
        `catalog rebuilt: ${publishedPath(dataDir)}${change === 'rebuilt' ? '' : ` (${change})`}\n`,
      );
    });
}
