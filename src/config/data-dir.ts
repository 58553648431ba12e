import { accessSync, constants, existsSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../util/user-error.js';

/** The config file named (--config / CW_CONFIG) and the dataDir it sets, if any. */
export interface ConfigFileDataDir {
  readonly path: string;
  readonly dataDir?: string | undefined;
}

/** Where runtime files live when neither a flag, CW_DATA_DIR nor the config file says otherwise. */
export const DEFAULT_DATA_DIR = './data';

/**
 * The data directory of a command that writes there (sync, sink, serve, hooks, schemas, demo),
 * checked before anything opens a file: --data-dir, else CW_DATA_DIR, else the config file's
 * dataDir, else ./data. It must be an existing writable directory, or one that can be created
 * (its nearest existing ancestor is a writable directory that accepts a new folder, which is
 * tried and removed again); nothing is left behind here. An error names where the bad value
 * came from.
 */
export function resolveDataDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  file?: ConfigFileDataDir,
): string {
  const { dir, source } = pick(flag, env, file);
  let probe = resolve(dir);
  let missing: string | undefined;
  while (!existsSync(probe) && dirname(probe) !== probe) {
    missing = probe;
    probe = dirname(probe);
  }
  if (!statSync(probe).isDirectory()) {
    const where = probe === resolve(dir) ? '' : ` (${probe} is a file)`;
    throw new UserError(`${source}: "${dir}" is not a directory${where}`);
  }
  try {
    accessSync(probe, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UserError(`${source}: "${dir}" is not writable (${probe}: ${code})`);
  }
  if (missing !== undefined) probeCreate(missing, dir, source);
  return dir;
}

/**
 * A folder that passes access() may still refuse a new folder (/proc, /sys, a read-only
 * mount): create the first missing one and remove it again, so that such a place is refused
 * here, not in a later recursive mkdir (which loops for ever on /proc).
 */
function probeCreate(path: string, dir: string, source: string): void {
  try {
    mkdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UserError(`${source}: "${dir}" cannot be created (${path}: ${code})`);
  }
  rmdirSync(path);
}

/**
 * The data directory of a reader (status, query, report, catalog rebuild): chosen as
 * resolveDataDir does; it need not exist (nothing to report yet) but must not be a file.
 */
export function existingDataDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  file?: ConfigFileDataDir,
): string {
  const { dir, source } = pick(flag, env, file);
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UserError(`${source}: "${dir}" is not a directory`);
  return dir;
}

function pick(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  file?: ConfigFileDataDir,
): { dir: string; source: string } {
  const [dir, source] =
    flag !== undefined
      ? [flag, '--data-dir']
      : env.CW_DATA_DIR !== undefined
        ? [env.CW_DATA_DIR, 'CW_DATA_DIR']
        : file?.dataDir !== undefined
          ? [file.dataDir, `config file ${file.path}: dataDir`]
          : [DEFAULT_DATA_DIR, 'the data directory'];
  if (dir.trim() === '') throw new UserError(`${source}: the data directory cannot be empty`);
  return { dir, source };
}
