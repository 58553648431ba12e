/**
 * The exit codes, the same for every command (README, "Exit codes"): a service manager must be
 * able to tell a configuration that will never work (do not restart: systemd's
 * RestartPreventExitStatus=2) from a failure that may pass (restart).
 */
/** A usage or configuration error: a bad flag, argument, environment variable or config file. */
export const USAGE_EXIT_CODE = 2;
/** A runtime failure: the API, the network, the disk, a data check; running again may succeed. */
export const RUNTIME_EXIT_CODE = 1;

/**
 * An error the user can act on (bad flag, bad config field, missing key, API refusal):
 * the CLI prints its message as one line, without a stack, and exits with `exitCode`
 * (USAGE_EXIT_CODE unless the cause is at runtime).
 * Messages must never contain the API key or a hook secret.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options?.exitCode ?? USAGE_EXIT_CODE;
  }
}
