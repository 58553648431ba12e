import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `serve`. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('(serve: not built yet)')
    .action(() => {
      throw Object.assign(new Error('serve is not built yet'), { exitCode: 3 });
    });
}
