import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../src/config/config-file-schema.js';
import { parseRemoteUrl, resolveRemoteConfig } from '../../src/config/remote-config.js';

describe('the remote setting', () => {
  it('is off unless a flag, CW_REMOTE or the config file sets it', () => {
    expect(resolveRemoteConfig(undefined, {}, undefined)).toBeUndefined();
    expect(resolveRemoteConfig(undefined, { CW_REMOTE: '' }, undefined)).toBeUndefined();
  });

  it('takes the flag over CW_REMOTE over the config file, keeping the file’s endpoint, region and retention', () => {
    const file = {
      url: 's3://file-bucket/f',
      endpoint: 'https://minio.example:9000/',
      region: 'eu-west-1',
      retentionDays: 7,
    };
    expect(resolveRemoteConfig('s3://flag-bucket/a/b/', { CW_REMOTE: 's3://env-bucket' }, file)).toEqual({
      url: 's3://flag-bucket/a/b',
      bucket: 'flag-bucket',
      prefix: 'a/b/',
      endpoint: 'https://minio.example:9000',
      region: 'eu-west-1',
      retentionMs: 7 * 86_400_000,
    });
    expect(resolveRemoteConfig(undefined, { CW_REMOTE: 's3://env-bucket' }, 's3://file-bucket')?.bucket).toBe(
      'env-bucket',
    );
    expect(resolveRemoteConfig(undefined, {}, 's3://file-bucket')).toEqual({
      url: 's3://file-bucket',
      bucket: 'file-bucket',
      prefix: '',
    });
  });

  it.each([
    ['https://bucket/prefix', /--remote "https:\/\/bucket\/prefix" is not an s3:\/\/ URL/],
    ['s3://', /names no bucket/],
    ['s3:///prefix', /names no bucket/],
    ['s3://UPPER/x', /not an S3 bucket name/],
    ['s3://bkt/../x', /cannot hold \. or \.\. segments/],
  ])('refuses %s with one line, exit 2', (url, message) => {
    let error: unknown;
    try {
      resolveRemoteConfig(url, {}, undefined);
    } catch (caught) {
      error = caught;
    }
    expect((error as Error).message).toMatch(message);
    expect((error as { exitCode: number }).exitCode).toBe(2);
    expect((error as Error).message).not.toContain('\n');
  });

  it('allows plain http only to a loopback endpoint, from the config file or the SDK’s variables', () => {
    expect(
      resolveRemoteConfig(undefined, {}, { url: 's3://bkt', endpoint: 'http://127.0.0.1:9000' })?.endpoint,
    ).toBe('http://127.0.0.1:9000');
    expect(() =>
      resolveRemoteConfig(undefined, {}, { url: 's3://bkt', endpoint: 'http://minio.example' }),
    ).toThrow(/remote.endpoint http:\/\/minio.example must use https/);
    expect(() =>
      resolveRemoteConfig('s3://bkt', { AWS_ENDPOINT_URL: 'http://s3.example' }, undefined),
    ).toThrow(/AWS_ENDPOINT_URL http:\/\/s3.example must use https/);
    expect(
      resolveRemoteConfig('s3://bkt', { AWS_ENDPOINT_URL_S3: 'http://localhost:4566' }, undefined),
    ).toBeDefined();
  });

  it('parses a prefix into key form', () => {
    expect(parseRemoteUrl('s3://my.bucket-1', 'x')).toEqual({ bucket: 'my.bucket-1', prefix: '' });
    expect(parseRemoteUrl('s3://bkt//lake//prod/', 'x')).toEqual({ bucket: 'bkt', prefix: 'lake/prod/' });
  });

  it('is a key of the config file, as a URL or an object (unknown fields refused)', () => {
    expect(configFileSchema.safeParse({ remote: 's3://bkt/p' }).success).toBe(true);
    expect(configFileSchema.safeParse({ remote: { url: 's3://bkt/p', retentionDays: 30 } }).success).toBe(
      true,
    );
    expect(configFileSchema.safeParse({ remote: { url: 's3://bkt/p', secretAccessKey: 'x' } }).success).toBe(
      false,
    );
  });
});
