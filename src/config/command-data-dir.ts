/**
 * The data directory of a command that does not talk to the API (status, query, report,
 * catalog rebuild, sink, demo), chosen as every command chooses it: --data-dir, else
 * CW_DATA_DIR, else the dataDir of the config file (--config, else CW_CONFIG), else ./data.
 * The file is read and checked whole, as sync reads it: a bad file is an error here too.
 */
import { type ConfigFileDataDir, existingDataDir, resolveDataDir } from './data-dir.js';
import { loadConfigFile } from './sync-config.js';

export interface DataDirFlags {
  readonly dataDir?: string;
  readonly config?: string;
}

/** The config file's path and dataDir, when a file is named (--config, else CW_CONFIG). */
function configFile(flags: DataDirFlags, env: NodeJS.ProcessEnv): ConfigFileDataDir | undefined {
  const path = flags.config ?? env.CW_CONFIG;
  return path ? { path, dataDir: loadConfigFile(path).dataDir } : undefined;
}

/** For a command that writes there (sink, demo): see resolveDataDir. */
export function writableDataDir(flags: DataDirFlags, env: NodeJS.ProcessEnv = process.env): string {
  return resolveDataDir(flags.dataDir, env, configFile(flags, env));
}

/** For a reader (status, query, report, catalog rebuild): see existingDataDir. */
export function readerDataDir(flags: DataDirFlags, env: NodeJS.ProcessEnv = process.env): string {
  return existingDataDir(flags.dataDir, env, configFile(flags, env));
}
