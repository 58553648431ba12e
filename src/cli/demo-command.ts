import type { Command } from 'commander';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'what `npm start` runs: the simulator in-process, a sync into the data directory, analyst questions, ' +
        'then hooks pushing signed documents to an in-process sink (a duplicate and a forged push included), ' +
        'and last the HTML report (<data-dir>/report.html)',
    )
    .option(...dataDirOption())
    .option(...CONFIG_OPTION)
    .action(async (flags: { dataDir?: string; config?: string }) => {
      const [{ runDemo }, { createLogger }, { writableDataDir }, { textLogLine }] = await Promise.all([
        import('./run-demo.js'),
        import('../util/logger.js'),
        import('../config/command-data-dir.js'),
        import('../util/text-log-line.js'),
      ]);
      const dataDir = writableDataDir(flags);
      // As sync's: on a terminal the log reads as text lines, elsewhere as JSON lines.
      const toTerminal = (line: string) => process.stderr.write(textLogLine(line));
      const logger = createLogger('demo', process.stderr.isTTY ? { write: toTerminal } : undefined);
      // The demo's own story goes to stdout; keep the log for warnings and errors (among them
      // the history check the demo's injected spike fails on purpose).
      logger.level = process.env.CW_LOG_LEVEL ?? 'warn';
      await runDemo(dataDir, logger);
    });
}
