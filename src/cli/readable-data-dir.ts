/**
 * The data directory of a command that reads the published warehouse (`query`, `report`):
 * the flag, CW_DATA_DIR or the default, checked; a moved data directory (or a previous
 * release's warehouse) first gets its catalog brought up to date, as every run does.
 */
export async function readableDataDir(flag: string | undefined): Promise<string> {
  const [{ existingDataDir }, { refreshCatalog }] = await Promise.all([
    import('../config/data-dir.js'),
    import('../warehouse/refresh-catalog.js'),
  ]);
  const dataDir = existingDataDir(flag);
  await refreshCatalog(dataDir);
  return dataDir;
}
