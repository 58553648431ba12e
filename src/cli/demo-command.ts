import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `demo`. */
export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('(demo: not built yet)')
    .action(() => {
      throw Object.assign(new Error('demo is not built yet'), { exitCode: 3 });
    });
}
