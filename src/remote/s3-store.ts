import { open, readFile } from 'node:fs/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { RemoteConfig } from '../config/remote-config.js';
import { RemoteFailure } from './remote-failure.js';

/**
 * Files at or above this size go up in parts (S3 takes at most 5 GB in one PUT; parts let a
 * large closed year's file stream without holding it whole in memory).
 */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
/** The size of each part of a multipart upload (S3's minimum is 5 MiB, its maximum 10,000 parts). */
export const PART_SIZE = 16 * 1024 * 1024;
/**
 * Attempts per request (the SDK's own retry, its `adaptive` mode: exponential backoff with
 * jitter and client-side rate limiting on throttling such as 503 SlowDown). Ten give a
 * throttled store about a minute before the commit gives up until the next publish.
 */
export const MAX_ATTEMPTS = 10;

/** What the remote commit counts (the benchmark's figures; each attempt of a retried request counts). */
export interface StoreStats {
  requests: number;
  bytesUp: number;
  bytesDown: number;
}

export interface ListedObject {
  readonly key: string;
  readonly lastModified: number;
  readonly size: number;
}

/**
 * The object store under a remote's bucket, keys relative to the bucket. Every failure is a
 * RemoteFailure (one line: bucket, host, S3 error code).
 */
export class S3Store {
  readonly stats: StoreStats = { requests: 0, bytesUp: 0, bytesDown: 0 };

  constructor(
    readonly client: S3Client,
    readonly remote: RemoteConfig,
    /** For messages: the endpoint's host (never a credential). */
    readonly host: string,
  ) {
    client.middlewareStack.add(
      (next) => async (args) => {
        this.stats.requests += 1;
        return next(args);
      },
      { step: 'finalizeRequest', name: 'countRequests' },
    );
  }

  /** The object's bytes, or undefined when there is none (404). */
  async get(key: string): Promise<Buffer | undefined> {
    const { GetObjectCommand } = await sdk();
    try {
      const reply = await this.client.send(new GetObjectCommand({ Bucket: this.remote.bucket, Key: key }));
      const bytes = Buffer.from(await reply.Body!.transformToByteArray());
      this.stats.bytesDown += bytes.length;
      return bytes;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw this.failure(error, `reading ${key}`);
    }
  }

  /** Writes `body` at `key` unless an object is there (If-None-Match: *); false when one was (412). */
  async putIfAbsent(key: string, body: Buffer, contentType = 'application/octet-stream'): Promise<boolean> {
    const { PutObjectCommand } = await sdk();
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.remote.bucket,
          Key: key,
          Body: body,
          IfNoneMatch: '*',
          ContentType: contentType,
        }),
      );
      this.stats.bytesUp += body.length;
      return true;
    } catch (error) {
      if (isTaken(error)) return false;
      throw this.failure(error, `writing ${key}`);
    }
  }

  /** Writes `body` at `key`, over what is there (only version-hint.text is ever overwritten). */
  async put(key: string, body: Buffer, contentType = 'text/plain'): Promise<void> {
    const { PutObjectCommand } = await sdk();
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.remote.bucket, Key: key, Body: body, ContentType: contentType }),
      );
      this.stats.bytesUp += body.length;
    } catch (error) {
      throw this.failure(error, `writing ${key}`);
    }
  }

  /**
   * Uploads a local file to `key` unless an object is there; a file of MULTIPART_THRESHOLD or
   * more goes up in parts, completed with If-None-Match: * too. False when the key was taken.
   */
  async uploadFile(key: string, path: string, bytes: number): Promise<boolean> {
    if (bytes < MULTIPART_THRESHOLD) return this.putIfAbsent(key, await readFile(path));
    return this.#multipart(key, path, bytes);
  }

  async #multipart(key: string, path: string, bytes: number): Promise<boolean> {
    const {
      CreateMultipartUploadCommand,
      UploadPartCommand,
      CompleteMultipartUploadCommand,
      AbortMultipartUploadCommand,
    } = await sdk();
    const Bucket = this.remote.bucket;
    let uploadId: string | undefined;
    const file = await open(path, 'r');
    try {
      const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
      uploadId = created.UploadId!;
      const parts: { ETag: string; PartNumber: number }[] = [];
      for (let offset = 0, number = 1; offset < bytes; offset += PART_SIZE, number += 1) {
        const length = Math.min(PART_SIZE, bytes - offset);
        const body = Buffer.alloc(length);
        await file.read(body, 0, length, offset);
        const part = await this.client.send(
          new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: number, Body: body }),
        );
        this.stats.bytesUp += length;
        parts.push({ ETag: part.ETag!, PartNumber: number });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
          IfNoneMatch: '*',
        }),
      );
      uploadId = undefined;
      return true;
    } catch (error) {
      if (isTaken(error)) return false;
      throw this.failure(error, `uploading ${key}`);
    } finally {
      await file.close();
      if (uploadId)
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }))
          .catch(() => {});
    }
  }

  /** The objects under `prefix` (a key prefix), every page. */
  async list(prefix: string): Promise<ListedObject[]> {
    const out: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.#listPage(prefix, token ? { ContinuationToken: token } : {});
      out.push(...page.objects);
      token = page.next;
    } while (token);
    return out;
  }

  /**
   * At most `count` objects under `prefix` whose keys sort after `after` (S3's own order), and
   * whether more follow.
   */
  async listAfter(
    prefix: string,
    after: string,
    count: number,
  ): Promise<{ objects: ListedObject[]; more: boolean }> {
    const page = await this.#listPage(prefix, { MaxKeys: count, ...(after ? { StartAfter: after } : {}) });
    return { objects: page.objects, more: page.next !== undefined };
  }

  async #listPage(
    prefix: string,
    from: { ContinuationToken?: string; StartAfter?: string; MaxKeys?: number },
  ): Promise<{ objects: ListedObject[]; next: string | undefined }> {
    const { ListObjectsV2Command } = await sdk();
    try {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.remote.bucket, Prefix: prefix, ...from }),
      );
      return {
        objects: (page.Contents ?? []).map((item) => ({
          key: item.Key!,
          lastModified: item.LastModified?.getTime() ?? 0,
          size: item.Size ?? 0,
        })),
        next: page.IsTruncated ? (page.NextContinuationToken ?? '') : undefined,
      };
    } catch (error) {
      throw this.failure(error, `listing ${prefix}`);
    }
  }

  /** Deletes `keys`, a thousand per request (S3's most); a key already gone is no error. */
  async delete(keys: readonly string[]): Promise<void> {
    const { DeleteObjectsCommand } = await sdk();
    for (let at = 0; at < keys.length; at += 1000) {
      const batch = keys.slice(at, at + 1000);
      try {
        const reply = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.remote.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const failed = reply.Errors?.[0];
        if (failed) throw Object.assign(new Error(failed.Message ?? 'delete failed'), { name: failed.Code });
      } catch (error) {
        throw this.failure(error, `deleting ${batch.length} objects`);
      }
    }
  }

  failure(error: unknown, doing: string): RemoteFailure {
    return RemoteFailure.from(error, { bucket: this.remote.bucket, host: this.host, doing });
  }
}

/** The SDK's command classes, loaded with the first request (commands that never commit never load it). */
function sdk() {
  return import('./s3-sdk.js');
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return statusOf(error) === 404 && name !== 'NoSuchBucket';
}

/** A conditional write refused because the key exists (412; 409 from stores that report a concurrent conditional write so). */
function isTaken(error: unknown): boolean {
  const status = statusOf(error);
  return (
    status === 412 || (status === 409 && (error as { name?: string }).name === 'ConditionalRequestConflict')
  );
}
