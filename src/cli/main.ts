#!/usr/bin/env node
/**
 * The `campaign-warehouse` executable. Each command lives in its own file and loads its
 * heavy modules (DuckDB, undici, the simulator) lazily inside its action, so that
 * `--help` and start-up stay fast.
 */
// First: configures DuckDB's allocator before anything loads DuckDB.
import '../warehouse/duckdb-allocator.js';
import { Command, CommanderError } from 'commander';
import { firstLine } from '../util/first-line.js';
import { USAGE_EXIT_CODE } from '../util/user-error.js';
import { registerCatalog } from './catalog-command.js';
import { registerDemo } from './demo-command.js';
import { registerHooks } from './hooks-command.js';
import { addLogOptions } from './log-options.js';
import { registerNotify } from './notify-command.js';
import { registerQuery } from './query-command.js';
import { registerRemote } from './remote-command.js';
import { registerReport } from './report-command.js';
import { registerSchemas } from './schemas-command.js';
import { registerServe } from './serve-command.js';
import { registerSimulate } from './simulate-command.js';
import { registerSink } from './sink-command.js';
import { registerStatus } from './status-command.js';
import { registerSync } from './sync-command.js';
import { registerTables } from './tables-command.js';

export function buildProgram(): Command {
  const program = new Command('campaign-warehouse')
    .description(
      'Keeps a DuckDB warehouse of influencer campaign metrics and streamed documents from the analytics API.\n' +
        'The API key is read from CW_API_KEY only (never a flag: argv is visible to other users).',
    )
    .version('0.1.0')
    // A usage error is one line too, like every other failure (commander's "Did you mean" included).
    .configureOutput({
      outputError: (text, write) =>
        write(
          `campaign-warehouse: ${text
            .trim()
            .replace(/^error: /, '')
            .replace(/\s*\n\s*/g, ' ')} (add --help for usage)\n`,
        ),
    })
    .exitOverride();
  for (const register of [
    registerDemo,
    registerSync,
    registerStatus,
    registerQuery,
    registerTables,
    registerReport,
    registerCatalog,
    registerHooks,
    registerSchemas,
    registerSink,
    registerServe,
    registerRemote,
    registerNotify,
    registerSimulate,
  ]) {
    register(program);
  }
  addLogOptions(program);
  return program;
}

/**
 * After a failure, the process must end even if something the command had started still holds
 * the event loop: a start that failed half-way must never leave a process doing nothing.
 */
const EXIT_AFTER_FAILURE_MS = 1_500;

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    setTimeout(() => process.exit(), EXIT_AFTER_FAILURE_MS).unref();
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every usage error commander finds (unknown option or
      // command, missing or bad argument) is a usage error like ours: USAGE_EXIT_CODE.
      process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
      return;
    }
    const exitCode = (error as { exitCode?: unknown }).exitCode;
    if (typeof exitCode === 'number') {
      process.stderr.write(`campaign-warehouse: ${(error as Error).message}\n`);
      process.exitCode = exitCode;
      return;
    }
    // A runtime failure: one line, as for every other failure; the stack trace only when asked for.
    const debug = process.env.CW_LOG_LEVEL === 'debug' || process.env.CW_LOG_LEVEL === 'trace';
    const line = `${(error as Error)?.name ?? 'Error'}: ${firstLine(error)}`;
    process.stderr.write(
      debug
        ? `campaign-warehouse: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`
        : `campaign-warehouse: unexpected error: ${line} (CW_LOG_LEVEL=debug shows the stack trace)\n`,
    );
    process.exitCode = 1;
  }
}

await main();
