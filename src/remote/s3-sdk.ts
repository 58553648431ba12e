/**
 * The AWS SDK's parts this tool uses. s3-store.ts and open-store.ts import this module lazily,
 * with the first request, so commands that never commit never load the SDK. A lazy import
 * names a module of ours, never a package: the bundled CLI (build-cli.mjs) keeps the named
 * exports of its own modules, while a lazily imported CommonJS package would give it a default
 * export only (test/unit/lazy-imports.test.ts).
 */
export {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
