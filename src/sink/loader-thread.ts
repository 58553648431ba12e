import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RemoteConfig } from '../config/remote-config.js';
import type { Logger } from '../util/logger.js';
import { packageRoot } from '../util/package-root.js';
import type { LoadResult, SinkLoader } from './loader.js';

/** What the loader's thread is started with (loader-worker.ts). */
export interface LoaderThreadData {
  readonly dataDir: string;
  readonly publishIntervalMs: number;
  readonly validateSchemas: boolean;
  readonly logLevel: string;
  /** The remote lake the thread's publishes are also committed to (docs/remote.md). */
  readonly remote?: RemoteConfig;
}

/** Messages to the loader's thread. */
export type ToLoaderThread =
  | { readonly type: 'ack'; readonly receivedAt: string; readonly deliveries: number }
  | { readonly type: 'load' | 'stop'; readonly id: number }
  | { readonly type: 'close' };

/** Messages from the loader's thread. */
export type FromLoaderThread =
  | { readonly type: 'published'; readonly result: LoadResult }
  | { readonly type: 'failed'; readonly message: string }
  /** A remote commit after a publish: its failure's line, or none when it landed. */
  | { readonly type: 'remote'; readonly failure?: string }
  | { readonly type: 'done'; readonly id: number; readonly result?: LoadResult; readonly error?: string };

/**
 * The built worker, bundled as the CLI is (build-cli.mjs): a thread cannot run TypeScript, so
 * tests run it from dist/ too (vitest's global setup rebuilds dist/ when src/ is newer).
 */
const WORKER_FILE = join(packageRoot(), 'dist', 'cli', 'loader-worker.js');

/** A loader thread that ended unexpectedly is started again after this long. */
const RESTART_DELAY_MS = 1_000;

/**
 * Acknowledgements are passed to the thread at most this often, summed: each message wakes
 * the thread, and at thousands of group commits a second that costs more than the work. The
 * loader's schedule does not suffer: a publish is due from the first delivery's receivedAt.
 */
const ACK_NOTE_EVERY_MS = 100;

export interface LoaderThreadOptions extends LoaderThreadData {
  /** The thread's script; tests give one that wraps the real one (default: the built loader-worker.js). */
  readonly workerFile?: string;
  readonly logger: Logger;
  readonly onPublished: (result: LoadResult) => void;
  readonly onPublishFailed: (error: Error) => void;
  /** Each remote commit's outcome: the failure's line, or undefined once one landed. */
  readonly onRemote?: (failure: string | undefined) => void;
}

/**
 * The sink's loader (loader.ts) on a worker thread of its own, with its own connections to the
 * inbox and the hook registry: reading the inbox, parsing and validating documents, DuckDB
 * appends and the publish's Parquet writes never hold the sink's event loop, so acknowledgements go on at
 * full pace while a publish runs. If the thread dies, calls waiting on it are rejected, the
 * failure is counted as a failed publish, and a new thread starts a second later from the
 * inbox's watermark (nothing acknowledged is lost: it stays in the inbox until published).
 */
export class LoaderThread implements SinkLoader {
  readonly #o: LoaderThreadOptions;
  readonly #calls = new Map<number, { resolve(result?: LoadResult): void; reject(error: Error): void }>();
  #worker: Worker | undefined;
  #nextId = 0;
  #closed = false;
  #restart: NodeJS.Timeout | undefined;
  /** Acknowledgements not yet passed to the thread: the first one's time, and how many. */
  #acked: { receivedAt: string; deliveries: number } | undefined;

  constructor(options: LoaderThreadOptions) {
    this.#o = options;
    this.#start();
  }

  noteAcknowledged(receivedAt: string, deliveries: number): void {
    if (this.#acked) {
      this.#acked.deliveries += deliveries;
      return;
    }
    this.#acked = { receivedAt, deliveries };
    setTimeout(() => {
      const acked = this.#acked;
      this.#acked = undefined;
      if (acked) this.#worker?.postMessage({ type: 'ack', ...acked } satisfies ToLoaderThread);
    }, ACK_NOTE_EVERY_MS).unref();
  }

  async loadNow(): Promise<LoadResult> {
    return (await this.#call('load')) as LoadResult;
  }

  async stop(): Promise<void> {
    // A thread that died and waits for its restart runs nothing that could be stopped.
    if (this.#worker) await this.#call('stop');
  }

  /** Ends the thread (after stop and the final flush); waits until it has closed its connections. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#restart);
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // until it has closed its connections
    worker.postMessage({ type: 'close' } satisfies ToLoaderThread);
    await exited;
  }

  #start(): void {
    const { dataDir, publishIntervalMs, validateSchemas, logLevel, remote } = this.#o;
    const worker = new Worker(this.#o.workerFile ?? WORKER_FILE, {
      workerData: {
        dataDir,
        publishIntervalMs,
        validateSchemas,
        logLevel,
        ...(remote ? { remote } : {}),
      } satisfies LoaderThreadData,
    });
    let failure: string | undefined;
    worker.on('message', (message: FromLoaderThread) => this.#receive(message));
    worker.on('error', (error) => {
      failure ??= error.message;
    });
    worker.on('exit', (code) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const reason = `sink: loader thread ended (${failure ?? `exit code ${code}`})`;
      for (const call of this.#calls.values()) call.reject(new Error(reason));
      this.#calls.clear();
      if (this.#closed) return;
      this.#o.logger.error({ err: reason }, 'sink: loader thread ended; starting it again');
      this.#o.onPublishFailed(new Error(reason));
      this.#restart = setTimeout(() => this.#start(), RESTART_DELAY_MS);
      this.#restart.unref();
    });
    // The HTTP server keeps the sink alive; this thread alone must not.
    worker.unref();
    this.#worker = worker;
  }

  #receive(message: FromLoaderThread): void {
    if (message.type === 'published') this.#o.onPublished(message.result);
    else if (message.type === 'failed') this.#o.onPublishFailed(new Error(message.message));
    else if (message.type === 'remote') this.#o.onRemote?.(message.failure);
    else {
      const call = this.#calls.get(message.id);
      this.#calls.delete(message.id);
      if (message.error === undefined) call?.resolve(message.result);
      else call?.reject(new Error(message.error));
    }
  }

  #call(type: 'load' | 'stop'): Promise<LoadResult | undefined> {
    const worker = this.#worker;
    if (!worker) return Promise.reject(new Error('sink: the loader thread is not running'));
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      worker.ref(); // an answer awaited keeps the process alive
      worker.postMessage({ type, id } satisfies ToLoaderThread);
    }).finally(() => {
      if (this.#calls.size === 0) this.#worker?.unref();
    }) as Promise<LoadResult | undefined>;
  }
}
