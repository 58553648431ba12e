import type { Manifest, ManifestFile } from './iceberg-model.js';

/**
 * Manifest lists and manifests this process wrote or read, by URI: they are immutable, so a
 * long-running process (the sink, serve) reads each at most once, and garbage collection needs
 * no request for the snapshots it committed itself. Bounded: cleared past MAX_ENTRIES.
 */
const MAX_ENTRIES = 20_000;
const lists = new Map<string, readonly ManifestFile[]>();
const manifests = new Map<string, Manifest>();

export const objectCache = {
  list: (uri: string) => lists.get(uri),
  manifest: (uri: string) => manifests.get(uri),
  rememberList(uri: string, files: readonly ManifestFile[]): void {
    if (lists.size >= MAX_ENTRIES) lists.clear();
    lists.set(uri, files);
  },
  rememberManifest(manifest: Manifest): void {
    if (manifests.size >= MAX_ENTRIES) manifests.clear();
    manifests.set(manifest.file.path, manifest);
  },
};
