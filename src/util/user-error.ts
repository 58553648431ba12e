/**
 * An error the user can act on (bad flag, bad config field, missing key, API refusal):
 * the CLI prints its message as one line, without a stack, and exits with `exitCode`.
 * Messages must never contain the API key or a hook secret.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options?.exitCode ?? 2;
  }
}
