import { UserError } from '../util/user-error.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The API is HTTPS only; plain http:// is allowed for loopback hosts (the simulator, tests). */
export function validateBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError(`base URL "${raw}" is not a URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new UserError(
      `base URL ${url.origin} must use https:// (plain http:// is only allowed for loopback hosts)`,
    );
  }
  throw new UserError(`base URL "${raw}" must be an https:// URL`);
}
