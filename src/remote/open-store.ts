import type { RemoteConfig } from '../config/remote-config.js';
import { MAX_ATTEMPTS, S3Store } from './s3-store.js';

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
  const { S3Client } = await import('@aws-sdk/client-s3');
  const envEndpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const custom = remote.endpoint ?? envEndpoint;
  const client = new S3Client({
    ...(remote.region ? { region: remote.region } : {}),
    ...(remote.endpoint ? { endpoint: remote.endpoint } : {}),
    forcePathStyle: custom !== undefined,
    retryMode: 'adaptive',
    maxAttempts: MAX_ATTEMPTS,
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
