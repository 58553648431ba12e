import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `status`. */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('(status: not built yet)')
    .action(() => {
      throw Object.assign(new Error('status is not built yet'), { exitCode: 3 });
    });
}
