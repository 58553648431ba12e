import { UserError } from '../util/user-error.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * An HTTPS URL, or plain http:// for a loopback host (the simulator, tests, a local sink):
 * the rule of the API's base URL and of a hook's target URL. `what` names it in errors.
 */
export function validateHttpsUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError(`${what} "${raw}" is not a URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new UserError(
      `${what} ${url.origin} must use https:// (plain http:// is only allowed for loopback hosts)`,
    );
  }
  throw new UserError(`${what} "${raw}" must be an https:// URL`);
}

/**
 * The API is HTTPS only (plain http:// for loopback hosts). Every request path starts with
 * /v3/, so a base URL ending in /v3 (as the API's documentation writes its endpoints) would
 * ask for /v3/v3/...: refused with a line saying to leave it out.
 */
export function validateBaseUrl(raw: string, source = 'base URL'): URL {
  const url = validateHttpsUrl(raw, source);
  if (/\/v3\/*$/i.test(url.pathname))
    throw new UserError(
      `${source}: ${raw} ends in /v3: give it without /v3 (every request adds /v3/... itself)`,
    );
  return url;
}
