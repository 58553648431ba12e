import { readlinkSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { labelOf, lakePath, versionFiles } from '../../src/warehouse/lake/testing.js';

/** The live version folder of a lake table (where its link points now). */
export function liveFolder(dataDir: string, table = 'post_metrics'): string {
  const lake = lakePath(dataDir);
  return resolve(lake, readlinkSync(join(lake, table)));
}

/** The live data files of a fact table: label (`<period>~<segment>`) -> inode. */
export function liveFiles(dataDir: string, table = 'post_metrics'): Map<string, number> {
  const folder = liveFolder(dataDir, table);
  return new Map(
    versionFiles(folder)
      .filter((place) => !labelOf(place)!.startsWith('_'))
      .map((place) => [labelOf(place)!, statSync(join(folder, place)).ino]),
  );
}

/** The path of the live data file labelled `label` (`<period>~<segment>`), in its `last_date=` folder. */
export function liveFile(dataDir: string, label: string, table = 'post_metrics'): string {
  const folder = liveFolder(dataDir, table);
  return join(folder, versionFiles(folder).find((place) => labelOf(place) === label)!);
}
