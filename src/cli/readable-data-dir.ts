import type { DataDirFlags } from '../config/command-data-dir.js';

/**
 * The data directory of a command that reads the published warehouse (`query`, `report`):
 * chosen as every command chooses it (see readerDataDir), checked; a moved data directory (or a previous
 * release's warehouse) first gets its catalog brought up to date, as every run does.
 */
export async function readableDataDir(flags: DataDirFlags): Promise<string> {
  const [{ readerDataDir }, { refreshCatalog }] = await Promise.all([
    import('../config/command-data-dir.js'),
    import('../warehouse/index.js'),
  ]);
  const dataDir = readerDataDir(flags);
  await refreshCatalog(dataDir);
  return dataDir;
}
