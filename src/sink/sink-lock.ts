/**
 * One sink per data directory: two would both acknowledge deliveries into one inbox and publish
 * them from two loaders. `<dataDir>/sink.pid` names the live sink's process; a second one is
 * refused (exit 1: a runtime condition, which passes once the first stops), a stale file (its
 * process gone, after a kill -9) is taken over. A sink started again in the same process (a
 * restart) holds it already.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processIsAlive } from '../util/process-is-alive.js';
import { RUNTIME_EXIT_CODE, UserError } from '../util/user-error.js';

export const SINK_LOCK_FILE = 'sink.pid';

export function holdSinkLock(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SINK_LOCK_FILE);
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (holder === process.pid) break;
      if (Number.isInteger(holder) && holder > 0 && processIsAlive(holder))
        throw new UserError(`another sink (pid ${holder}) is running on the data directory ${dataDir}`, {
          exitCode: RUNTIME_EXIT_CODE,
        });
      rmSync(path, { force: true });
    }
  }
  return {
    release() {
      try {
        if (Number.parseInt(readFileSync(path, 'utf8'), 10) === process.pid) rmSync(path, { force: true });
      } catch {
        // Gone already.
      }
    },
  };
}
