import type { Command } from 'commander';
import { DEFAULT_DATA_DIR } from '../config/data-dir.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

/** Where the demo writes when no data directory is named: not ./data, where a sync goes. */
export const DEMO_DATA_DIR = './data/demo';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'what `npm start` runs: the simulator in-process, a sync into the data directory, analyst questions, ' +
        'then hooks pushing signed documents to an in-process sink (a duplicate and a forged push included), ' +
        'and last the HTML report (<data-dir>/report.html)',
    )
    .option(
      ...dataDirOption(
        `the demo's data directory, apart from a sync's (default: ${DEMO_DATA_DIR}, not ./data)`,
      ),
    )
    .option(...CONFIG_OPTION)
    .action(async (flags: { dataDir?: string; config?: string }) => {
      const [{ runDemo }, { createLogger }, { writableDataDir }, { textLogLine }] = await Promise.all([
        import('./run-demo.js'),
        import('../util/logger.js'),
        import('../config/command-data-dir.js'),
        import('../util/text-log-line.js'),
      ]);
      // Its own folder unless one is named: the demo's simulated account never shares ./data
      // with a sync of the user's (a data directory holds one account: first-contact.ts).
      const chosen = writableDataDir(flags);
      const dataDir =
        flags.dataDir === undefined && chosen === DEFAULT_DATA_DIR
          ? writableDataDir({ dataDir: DEMO_DATA_DIR })
          : chosen;
      // As sync's: on a terminal the log reads as text lines, elsewhere as JSON lines.
      const toTerminal = (line: string) => process.stderr.write(textLogLine(line));
      const logger = createLogger('demo', process.stderr.isTTY ? { write: toTerminal } : undefined);
      // The demo's own story goes to stdout; keep the log for warnings and errors (among them
      // the history check the demo's injected spike fails on purpose).
      logger.level = process.env.CW_LOG_LEVEL ?? 'warn';
      await runDemo(dataDir, logger);
    });
}
