import { randomBytes } from 'node:crypto';

/** Every hook's target URL path starts with this; the rest is the hook's path token. */
export const HOOK_PATH_PREFIX = '/hooks/';

/**
 * 24 random bytes = 32 base64url characters (192 bits): unguessable, so the path alone
 * never lets a sender reach a hook it was not given, and URL-safe without escaping.
 */
const PATH_TOKEN_BYTES = 24;

const PATH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A fresh path token for a new hook (stored in the registry's `path_token`). */
export function newPathToken(): string {
  return randomBytes(PATH_TOKEN_BYTES).toString('base64url');
}

/** The path of a hook's target URL on the sink: `/hooks/<token>` (append to the sink's public base URL). */
export function hookPath(token: string): string {
  if (!PATH_TOKEN_PATTERN.test(token))
    throw new RangeError('hookPath: a path token is 1-128 URL-safe characters');
  return `${HOOK_PATH_PREFIX}${token}`;
}

/** The path token of a request path (query string already removed), or undefined when it is no hook path. */
export function parseHookPath(path: string): string | undefined {
  if (!path.startsWith(HOOK_PATH_PREFIX)) return undefined;
  const token = path.slice(HOOK_PATH_PREFIX.length);
  return PATH_TOKEN_PATTERN.test(token) ? token : undefined;
}
