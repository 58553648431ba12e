import type { RemoteConfig } from '../config/remote-config.js';
import { MAX_ATTEMPTS, S3Store } from './s3-store.js';

/**
 * A connection not established within this long is an attempt failed (a dead or black-holed
 * endpoint), retried by the SDK like any transient error: a dead endpoint fails the commit
 * within MAX_ATTEMPTS such waits plus the SDK's backoff, never hangs a publish.
 */
export const CONNECTION_TIMEOUT_MS = 5_000;
/**
 * A socket silent for this long (no byte sent or received) fails the attempt: a store that
 * accepts and then stalls. Long enough for a 16 MiB part on a slow link, which keeps bytes moving.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The S3 client of a remote: credentials from the SDK's default chain only (environment,
 * shared config and profiles, SSO, instance and container roles); the endpoint from
 * `remote.endpoint`, else the SDK's own AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL; with a custom
 * endpoint, path-style addressing (MinIO, Ceph and local servers have no per-bucket host
 * names). Checksums only where S3 requires them, which every S3-compatible store accepts.
 */
export async function openStore(
  remote: RemoteConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<S3Store> {
  // The SDK prints a multi-line notice on Node 20 (its support ends); this tool's output
  // stays its own. Read when a client is built (@aws-sdk/core, emitWarningIfUnsupportedVersion).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { S3Client } = await import('./s3-sdk.js');
  const envEndpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const custom = remote.endpoint ?? envEndpoint;
  const client = new S3Client({
    ...(remote.region ? { region: remote.region } : {}),
    ...(remote.endpoint ? { endpoint: remote.endpoint } : {}),
    forcePathStyle: custom !== undefined,
    // The SDK's own environment settings (AWS_RETRY_MODE, AWS_MAX_ATTEMPTS) win over these defaults.
    ...(env.AWS_RETRY_MODE ? {} : { retryMode: 'adaptive' }),
    ...(env.AWS_MAX_ATTEMPTS ? {} : { maxAttempts: MAX_ATTEMPTS }),
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return new S3Store(client, remote, hostOf(remote, custom));
}

/** The host requests go to, for messages. */
function hostOf(remote: RemoteConfig, custom: string | undefined): string {
  if (custom) {
    try {
      return new URL(custom).host;
    } catch {
      return custom;
    }
  }
  const region = remote.region ?? process.env.AWS_REGION;
  return region ? `${remote.bucket}.s3.${region}.amazonaws.com` : `${remote.bucket}.s3.amazonaws.com`;
}
