// Preloaded into a benchmarked child process (node --import): a worker thread of its own
// spinning beside it (busy-cores.ts), for at most five minutes.
import { Worker } from 'node:worker_threads';

new Worker('const end = Date.now() + 300000; while (Date.now() < end) {}', { eval: true }).unref();
