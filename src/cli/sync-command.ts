import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `sync`. */
export function registerSync(program: Command): void {
  program
    .command('sync')
    .description('(sync: not built yet)')
    .action(() => {
      throw Object.assign(new Error('sync is not built yet'), { exitCode: 3 });
    });
}
