import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `query`. */
export function registerQuery(program: Command): void {
  program
    .command('query')
    .description('(query: not built yet)')
    .action(() => {
      throw Object.assign(new Error('query is not built yet'), { exitCode: 3 });
    });
}
