/**
 * `--log-level <level>`, `-v/--verbose` and `-q/--quiet` on every command, for what users type
 * first. Each sets CW_LOG_LEVEL for the command (and the syncs `serve` starts, which inherit
 * the environment), so a flag wins over the variable as every other flag does. An unknown
 * level is one line, exit 2, as for CW_LOG_LEVEL.
 */
import type { Command } from 'commander';
import { UserError } from '../util/user-error.js';

interface LogFlags {
  readonly logLevel?: string;
  readonly verbose?: boolean;
  readonly quiet?: boolean;
}

/** Adds the three options to every command that runs something (a leaf of the command tree). */
export function addLogOptions(program: Command): void {
  for (const command of leaves(program)) {
    command
      .option(
        '--log-level <level>',
        'log level: trace, debug, info, warn, error, fatal, silent [env CW_LOG_LEVEL] (default: info)',
      )
      .option('-v, --verbose', 'log at debug level (--log-level debug)')
      .option('-q, --quiet', 'log errors only (--log-level error)');
  }
  program.hook('preAction', async (_program, action) => {
    const flags = action.opts<LogFlags>();
    const level = logLevelOf(flags);
    if (level === undefined) return;
    if (flags.logLevel !== undefined) (await import('../util/logger.js')).checkLogLevel(level, '--log-level');
    process.env.CW_LOG_LEVEL = level;
  });
}

function logLevelOf(flags: LogFlags): string | undefined {
  const chosen = [
    flags.logLevel,
    flags.verbose ? 'debug' : undefined,
    flags.quiet ? 'error' : undefined,
  ].filter((level) => level !== undefined);
  if (chosen.length > 1) throw new UserError('--log-level, --verbose and --quiet: give one of them');
  return chosen[0];
}

function leaves(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
}
