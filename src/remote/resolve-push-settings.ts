import { readerDataDir } from '../config/command-data-dir.js';
import { type RemoteConfig, resolveRemoteConfig } from '../config/remote-config.js';
import { loadConfigFile } from '../config/sync-config.js';
import { UserError } from '../util/user-error.js';

/**
 * The data directory and remote of a command that talks to no API (remote push; the sink):
 * --data-dir and --remote over the environment over the config file, as every command.
 * No remote configured is a usage error here: the command is about the remote.
 */
export function resolvePushSettings(
  flags: { dataDir?: string; config?: string; remote?: string },
  env: NodeJS.ProcessEnv = process.env,
): { dataDir: string; remote: RemoteConfig } {
  const dataDir = readerDataDir(flags, env);
  const remote = resolveRemoteSetting(flags, env);
  if (!remote)
    throw new UserError(
      'no remote: pass --remote s3://bucket/prefix, set CW_REMOTE, or set remote in the config file',
    );
  return { dataDir, remote };
}

/** The remote of a command without the API (the sink), or undefined when none is configured. */
export function resolveRemoteSetting(
  flags: { config?: string; remote?: string },
  env: NodeJS.ProcessEnv = process.env,
): RemoteConfig | undefined {
  const configPath = flags.config ?? env.CW_CONFIG;
  const file = configPath ? loadConfigFile(configPath) : undefined;
  return resolveRemoteConfig(flags.remote, env, file?.remote);
}
