/**
 * The loader's thread (see loader-thread.ts): runs the sink's Loader with connections of its
 * own to the inbox and the hook registry, and the warehouse's publishStream. Not imported by
 * anything: started as a worker from its bundle in dist/cli/ (build-cli.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { followPublishes } from '../remote/index.js';
import { openInboxDb } from '../state/inbox-db.js';
import { openStateDb } from '../state/state-db.js';
import { createLogger } from '../util/logger.js';
import { maintainLake, publishStream } from '../warehouse/index.js';
import { HookRegistry } from './hook-registry.js';
import { Loader, type LoadResult } from './loader.js';
import type { FromLoaderThread, LoaderThreadData, ToLoaderThread } from './loader-thread.js';
import { SchemaValidators } from './schema-validators.js';

const port = parentPort;
if (!port) throw new Error('loader-worker: run as a worker thread (see loader-thread.ts)');
const data = workerData as LoaderThreadData;
const logger = createLogger('sink');
logger.level = data.logLevel;
const post = (message: FromLoaderThread): void => port.postMessage(message);

// Each publish of this thread is also committed to the remote lake (docs/remote.md); a failure
// is logged and caught up by the next publish. Each outcome goes to the sink's watch (remote_behind).
if (data.remote)
  followPublishes(
    data.remote,
    (failure) => {
      logger.error({ err: failure.message }, 'sink: remote commit failed');
      post({ type: 'remote', failure: failure.message });
    },
    { onLanded: () => post({ type: 'remote' }) },
  );

const state = openStateDb(data.dataDir);
const inbox = openInboxDb(data.dataDir);
const loader = new Loader({
  dataDir: data.dataDir,
  inbox,
  registry: new HookRegistry(state),
  validators: data.validateSchemas ? new SchemaValidators(data.dataDir) : undefined,
  publishIntervalMs: data.publishIntervalMs,
  publish: publishStream,
  maintain: maintainLake,
  logger,
  onPublished: (result) => post({ type: 'published', result }),
  onPublishFailed: (error) => post({ type: 'failed', message: error.message }),
});

/** Answers call `id` with what `work` settles to (a load's result; nothing for a stop). */
function answer(id: number, work: Promise<unknown>): void {
  work.then(
    (result) => post({ type: 'done', id, ...(result ? { result: result as LoadResult } : {}) }),
    (error: Error) => post({ type: 'done', id, error: error.message }),
  );
}

port.on('message', (message: ToLoaderThread) => {
  switch (message.type) {
    case 'ack':
      loader.noteAcknowledged(message.receivedAt, message.deliveries);
      return;
    case 'load':
      answer(message.id, loader.loadNow());
      return;
    case 'stop':
      answer(message.id, loader.stop());
      return;
    case 'close':
      inbox.close();
      state.close();
      port.close();
      return;
  }
});
