import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `simulate`. */
export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('(simulate: not built yet)')
    .action(() => {
      throw Object.assign(new Error('simulate is not built yet'), { exitCode: 3 });
    });
}
