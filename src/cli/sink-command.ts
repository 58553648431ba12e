import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `sink`. */
export function registerSink(program: Command): void {
  program
    .command('sink')
    .description('(sink: not built yet)')
    .action(() => {
      throw Object.assign(new Error('sink is not built yet'), { exitCode: 3 });
    });
}
