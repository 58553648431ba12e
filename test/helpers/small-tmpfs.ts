import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

export interface SmallTmpfs {
  readonly dir: string;
  /** Writes a file until the file system is full to the last byte; returns its path. */
  fill(): string;
  unmount(): void;
}

/**
 * A tmpfs of `size` (mount's syntax: 8m) mounted on a temp folder, or the reason it could not
 * be (not root, no mount permission in a container): the caller's test then says it did not run.
 */
export function mountSmallTmpfs(size: string): SmallTmpfs | string {
  const dir = join(tempDir('cw-tmpfs-'), 'fs');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    return `cannot mount a tmpfs (${
      String((error as { stderr?: unknown }).stderr ?? error)
        .trim()
        .split('\n')[0]
    })`;
  }
  return {
    dir,
    fill() {
      const filler = join(dir, `filler-${Date.now()}`);
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'pipe' });
      } catch {
        // dd ends with "No space left on device": the file system is full.
      }
      return filler;
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
