/**
 * --data-dir and --config, worded the same for every command: every command takes both and
 * chooses with one precedence (flag > environment > config file > default). Each is the
 * arguments of commander's `.option(...)`: `.option(...dataDirOption('where ...'))`.
 */

/**
 * The config file's keys, as `--help` lists them (config-file-schema.ts is the contract; a
 * unit test keeps the two equal). Listed here so that `--help` does not load the schema.
 */
export const CONFIG_FILE_KEYS = [
  'baseUrl',
  'dataDir',
  'rps',
  'concurrency',
  'pageSize',
  'maxRetries',
  'timeoutMs',
  'responseDeadlineMs',
  'segments',
  'schedule',
  'checks',
  'notify',
  'remote',
] as const;

export function dataDirOption(what = 'data directory'): [string, string] {
  return ['--data-dir <dir>', `${what} [env CW_DATA_DIR, else the config file's dataDir] (default: ./data)`];
}

export const CONFIG_OPTION: [string, string] = [
  '--config <file>',
  `JSON config file (keys: ${CONFIG_FILE_KEYS.join(', ')}) [env CW_CONFIG]`,
];

/** --remote, on sync, sink, serve and remote (docs/remote.md). */
export const REMOTE_OPTION: [string, string] = [
  '--remote <s3-url>',
  "also commit each publish to this S3 bucket and prefix as Iceberg tables (s3://bucket/prefix) [env CW_REMOTE, else the config file's remote]",
];
