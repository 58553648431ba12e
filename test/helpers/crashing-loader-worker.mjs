// The sink's loader thread (dist/cli/loader-worker.js), except that it dies once: on a
// 'load' call while <dataDir>/crash-loader exists, it deletes that file and ends the thread
// with exit code 3 before the loader sees the call. For the LoaderThread restart tests.
import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const marker = join(workerData.dataDir, 'crash-loader');
// Wrap the real thread's own message listener, so no message reaches it unchecked (or is taken
// before it listens).
const on = parentPort.on.bind(parentPort);
parentPort.on = (event, listener) =>
  on(event, (message) => {
    if (event === 'message' && message.type === 'load' && existsSync(marker)) {
      unlinkSync(marker);
      process.exit(3);
    }
    listener(message);
  });
await import('../../dist/cli/loader-worker.js');
