import type { Command } from 'commander';
import { type ApiFlags, addApiOptions, withApi } from './api-context.js';

export function registerSchemas(program: Command): void {
  const schemas = program.command('schemas').description("the streaming documents' JSON Schemas");
  addApiOptions(
    schemas
      .command('fetch')
      .description(
        'store the three streaming JSON Schemas in <data-dir>/schemas/; the sink validates documents against them',
      ),
  ).action(async (flags: ApiFlags) => {
    const { fetchSchemas } = await import('../service/fetch-schemas.js');
    const written = await withApi(flags, ({ client, dataDir }) => fetchSchemas(client, dataDir));
    for (const file of written) process.stdout.write(`stored ${file}\n`);
  });
}
