/**
 * The set-up every remote-lake test shares: moto's S3 server on loopback, a bucket in it, and
 * the SDK's environment (credentials, region) for the test file, torn down after it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { RemoteConfig } from '../../src/config/remote-config.js';
import { createBucket, type RunningMoto, startMoto, useMotoEnv } from './moto-server.js';

export interface MotoBucket {
  /** moto's base URL (after the file's beforeAll). */
  readonly url: string;
  readonly bucket: string;
  /** The remote at `s3://<bucket>/<prefix>` through moto (`prefix` without slashes at its ends). */
  remote(prefix: string, extra?: Pick<RemoteConfig, 'retentionMs'>): RemoteConfig;
}

/**
 * Registers the beforeAll and afterAll hooks (call it inside the describe, before the test's
 * own hooks, which then find moto running): moto started, `bucket` created (`publicRead`: with
 * a policy letting anonymous readers such as icebird get its objects), the SDK's environment set.
 */
export function withMoto(options: { bucket?: string; publicRead?: boolean } = {}): MotoBucket {
  const bucket = options.bucket ?? 'lake';
  let moto: RunningMoto | undefined;
  let restoreEnv: (() => void) | undefined;
  beforeAll(async () => {
    restoreEnv = useMotoEnv();
    moto = await startMoto();
    await createBucket(moto.url, bucket, options.publicRead ?? false);
  }, 120_000);
  afterAll(async () => {
    await moto?.stop();
    restoreEnv?.();
  });
  const url = () => {
    if (!moto) throw new Error('withMoto: moto is not running yet (use it in a hook or a test)');
    return moto.url;
  };
  return {
    get url() {
      return url();
    },
    bucket,
    remote: (prefix, extra = {}) => ({
      url: prefix ? `s3://${bucket}/${prefix}` : `s3://${bucket}`,
      bucket,
      prefix: prefix ? `${prefix}/` : '',
      endpoint: url(),
      ...extra,
    }),
  };
}
