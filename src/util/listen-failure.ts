import { createServer } from 'node:net';
import { RUNTIME_EXIT_CODE, UserError } from './user-error.js';

/** What a failed listen's error code means for the user. */
const LISTEN_CODES: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use',
  EACCES: 'not permitted: ports below 1024 need privileges',
  EADDRNOTAVAIL: 'not an address of this machine',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'the host name could not be resolved now',
};

/**
 * Failures that may pass by themselves (the previous process still holds the port, the
 * resolver is down): runtime failures, so a service manager restarts; the others are
 * configuration errors.
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['EADDRINUSE', 'EAI_AGAIN']);

/**
 * A server's failed listen as a one-line UserError naming the address ("sink: cannot listen
 * on 127.0.0.1:8787: the port is in use (EADDRINUSE)"); any other error is returned as it is.
 */
export function listenFailure(error: unknown, what: string, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const meaning = code === undefined ? undefined : LISTEN_CODES[code];
  if (meaning === undefined) return error;
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new UserError(`${what}: cannot listen on ${address}: ${meaning} (${code})`, {
    cause: error,
    ...(code !== undefined && TRANSIENT_CODES.has(code) ? { exitCode: RUNTIME_EXIT_CODE } : {}),
  });
}

/**
 * Checks, before anything else starts, that `host:port` can be listened on (the host name
 * resolves, the address is this machine's, the port is free and permitted) by listening on it
 * and closing again at once; a failure is listenFailure's one-line UserError.
 */
export function probeListen(what: string, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenFailure(error, what, host, port)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
