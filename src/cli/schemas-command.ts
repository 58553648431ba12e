import type { Command } from 'commander';

/** Placeholder: replaced by the issue that builds `schemas`. */
export function registerSchemas(program: Command): void {
  program
    .command('schemas')
    .description('(schemas: not built yet)')
    .action(() => {
      throw Object.assign(new Error('schemas is not built yet'), { exitCode: 3 });
    });
}
