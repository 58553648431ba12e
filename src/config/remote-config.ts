/**
 * Where the remote lake lives (docs/remote.md): `remote` in the config file (a URL, or an
 * object with `url`, `endpoint`, `region`, `retentionDays`), CW_REMOTE, or `--remote` on sync,
 * sink, serve and remote; the flag wins over the environment, which wins over the file, as
 * for every setting. Credentials never come from here: only from the AWS SDK's default chain.
 */
import { z } from 'zod';
import { validateHttpsUrl } from '../api/validate-base-url.js';
import { UserError } from '../util/user-error.js';

export const remoteSectionSchema = z.union([
  z.string(),
  z.strictObject({
    url: z.string(),
    endpoint: z.string().optional(),
    region: z.string().min(1).optional(),
    retentionDays: z.number().positive().max(36_500).optional(),
  }),
]);

export type RemoteSection = z.infer<typeof remoteSectionSchema>;

/** A resolved remote, validated at the command's start. */
export interface RemoteConfig {
  /** `s3://<bucket>[/<prefix>]`, without a trailing slash. */
  readonly url: string;
  readonly bucket: string;
  /** Keys start with it: '' or `a/b/` (with its slash). */
  readonly prefix: string;
  /** A custom endpoint from the config file (the SDK reads AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL itself). */
  readonly endpoint?: string;
  readonly region?: string;
  /** Snapshots older than this expire; undefined: the local lake's retention (CW_LAKE_RETENTION_MINUTES). */
  readonly retentionMs?: number;
}

/** S3's bucket names: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The remote of a command: `flag` (--remote), else CW_REMOTE, else the config file's
 * `remote`; undefined when none is set (the remote is off). A bad value is a UserError (exit 2).
 */
export function resolveRemoteConfig(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  section: RemoteSection | undefined,
): RemoteConfig | undefined {
  const fromFile = typeof section === 'string' ? { url: section } : section;
  const source = flag !== undefined ? '--remote' : env.CW_REMOTE ? 'CW_REMOTE' : 'remote (config file)';
  const url = flag ?? (env.CW_REMOTE || undefined) ?? fromFile?.url;
  if (url === undefined) return undefined;
  const { bucket, prefix } = parseRemoteUrl(url, source);
  for (const name of ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'] as const) {
    const value = env[name];
    if (value) validateHttpsUrl(value, name);
  }
  const endpoint = fromFile?.endpoint
    ? validateHttpsUrl(fromFile.endpoint, 'remote.endpoint').href
    : undefined;
  return {
    url: `s3://${bucket}${prefix ? `/${prefix.slice(0, -1)}` : ''}`,
    bucket,
    prefix,
    ...(endpoint ? { endpoint: endpoint.replace(/\/+$/, '') } : {}),
    ...(fromFile?.region ? { region: fromFile.region } : {}),
    ...(fromFile?.retentionDays ? { retentionMs: fromFile.retentionDays * 86_400_000 } : {}),
  };
}

/** `s3://bucket[/prefix]` into its bucket and key prefix (`a/b/`, or '' for the bucket's root). */
export function parseRemoteUrl(raw: string, source: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]*)(\/.*)?$/.exec(raw.trim());
  if (!match) throw new UserError(`${source} "${raw}" is not an s3:// URL (s3://bucket/prefix)`);
  const bucket = match[1]!;
  if (!bucket) throw new UserError(`${source} "${raw}" names no bucket (s3://bucket/prefix)`);
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    throw new UserError(`${source}: "${bucket}" is not an S3 bucket name (3-63 of a-z, 0-9, . and -)`);
  const parts = (match[2] ?? '').split('/').filter((part) => part !== '');
  if (parts.some((part) => part === '.' || part === '..'))
    throw new UserError(`${source} "${raw}": a prefix cannot hold . or .. segments`);
  return { bucket, prefix: parts.length > 0 ? `${parts.join('/')}/` : '' };
}
