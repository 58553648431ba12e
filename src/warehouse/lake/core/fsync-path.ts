import { closeSync, fsyncSync, openSync } from 'node:fs';

/** fsyncs a file or a directory (a directory's entries: new names, renamed links). */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
