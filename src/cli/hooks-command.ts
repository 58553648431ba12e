import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `hooks`. */
export function registerHooks(program: Command): void {
  program
    .command('hooks')
    .description('(hooks: not built yet)')
    .action(() => {
      throw Object.assign(new Error('hooks is not built yet'), { exitCode: 3 });
    });
}
