/**
 * The remote lake (docs/remote.md): every publish of the local lake also committed to an
 * S3-compatible bucket as Apache Iceberg v2 tables. The only way in from outside src/remote/.
 *
 * Read first: README.md (the protocol, its invariants, what a crash leaves), then
 * commit-remote.ts (the local lake against the remote, table by table), commit-table.ts (one
 * table's snapshot, retried on a lost race) and commit-metadata.ts (the conditional write
 * that is the commit, the one step a catalog could replace).
 */

export {
  type RemoteConfig,
  type RemoteSection,
  remoteSectionSchema,
  resolveRemoteConfig,
} from '../config/remote-config.js';
export { followPublishes, type RemoteFollower } from './attach-remote.js';
export { type CommitRemoteOptions, commitRemote, type RemoteCommitResult } from './commit-remote.js';
export type { TableCommit } from './commit-table.js';
export { openStore } from './open-store.js';
export { type RemoteTable, readRemoteTable } from './read-remote-table.js';
export { RemoteFailure } from './remote-failure.js';
export { type RemoteLag, remoteLag, remoteLags, type TableLag } from './remote-lag.js';
export { TablePaths } from './remote-paths.js';
export type { S3Store, StoreStats } from './s3-store.js';
