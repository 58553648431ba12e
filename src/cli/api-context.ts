/**
 * Shared set-up of the commands that talk to the API outside a sync (hooks, schemas):
 * settings from flags, environment and config file, an API client, and the state DB.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../api/types.js';
import type { StateDb } from '../state/state-db.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

export interface ApiFlags {
  baseUrl?: string;
  dataDir?: string;
  config?: string;
}

export function addApiOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'API base URL [env CW_BASE_URL]; the key comes from CW_API_KEY')
    .option(...dataDirOption())
    .option(...CONFIG_OPTION);
}

/**
 * Runs `work` with a client and the state DB (opened at its first use), closing both afterwards.
 * `first` runs before the state DB is opened (hooks create and delete learn the key's account
 * there: a refused key, or a refusal of theirs, creates nothing); `work` gets what it returned as
 * `first`.
 */
export async function withApi<T, F = undefined>(
  flags: ApiFlags,
  work: (ctx: { client: ApiClient; state: StateDb; dataDir: string; first: F }) => Promise<T>,
  first?: (client: ApiClient, settings: { baseUrl: string; dataDir: string }) => Promise<F>,
): Promise<T> {
  const [{ resolveApiSettings }, { createApiClient }, { openStateDb }] = await Promise.all([
    import('../config/sync-config.js'),
    import('../api/create-api-client.js'),
    import('../state/state-db.js'),
  ]);
  const settings = resolveApiSettings(flags);
  const client = createApiClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    rps: settings.file.rps ?? 5,
    concurrency: 2,
    ...(settings.ca ? { ca: settings.ca } : {}),
  });
  let state: StateDb | undefined;
  try {
    const before = (await first?.(client, settings)) as F;
    // Opened when `work` first reads it: a command that asks the API first (hooks list, get,
    // searches; schemas fetch) creates no state database when the key is refused.
    const ctx = {
      client,
      dataDir: settings.dataDir,
      first: before,
      get state(): StateDb {
        state ??= openStateDb(settings.dataDir);
        return state;
      },
    };
    return await work(ctx);
  } finally {
    state?.close();
    await client.close();
  }
}
