import type { RemoteConfig } from '../config/remote-config.js';

/**
 * Where a table lives in the remote (docs/remote.md): `<prefix><table>/` with its data files
 * under `data/` and its metadata under `metadata/`, the layout location-based readers find
 * without a catalog.
 */
export class TablePaths {
  /** The table's key prefix in the bucket, with its slash. */
  readonly key: string;

  constructor(
    readonly remote: RemoteConfig,
    readonly table: string,
  ) {
    this.key = `${remote.prefix}${table}/`;
  }

  /** The table's location (metadata's `location`): `s3://bucket/prefix/<table>`. */
  get location(): string {
    return `s3://${this.remote.bucket}/${this.key.slice(0, -1)}`;
  }

  /** The URI of a key of the bucket. */
  uri(key: string): string {
    return `s3://${this.remote.bucket}/${key}`;
  }

  /** The key of a URI of this bucket (undefined for another bucket's). */
  keyOf(uri: string): string | undefined {
    const head = `s3://${this.remote.bucket}/`;
    return uri.startsWith(head) ? uri.slice(head.length) : undefined;
  }

  /**
   * The key of a local data file at `place` (`<folder>/<name>` or a name) written by `writer`:
   * `data/<folder>/<writer>-<name>`. The writer's id makes each data directory's files its own
   * (sink hosts share a table) and a file's name never changes its bytes, so the same place is
   * the same key at every commit.
   */
  dataKey(place: string, writer: string): string {
    const at = place.lastIndexOf('/');
    const folder = at < 0 ? '' : `${place.slice(0, at)}/`;
    return `${this.key}data/${folder}${writer}-${place.slice(at + 1)}`;
  }

  /** Whether a data file's URI is one `writer` wrote. */
  isWriters(uri: string, writer: string): boolean {
    const key = this.keyOf(uri) ?? '';
    return key.startsWith(`${this.key}data/`) && key.slice(key.lastIndexOf('/') + 1).startsWith(`${writer}-`);
  }

  /** The folder of a data file's URI under `data/` (`received_date=2026-11-21`; '' for none). */
  folderOf(uri: string): string {
    const key = (this.keyOf(uri) ?? '').slice(`${this.key}data/`.length);
    const at = key.lastIndexOf('/');
    return at < 0 ? '' : key.slice(0, at);
  }

  metadataKey(name: string): string {
    return `${this.key}metadata/${name}`;
  }

  versionKey(version: number): string {
    return this.metadataKey(`v${version}.metadata.json`);
  }

  get hintKey(): string {
    return this.metadataKey('version-hint.text');
  }
}
