import type { RemoteConfig } from '../config/remote-config.js';
import { setAfterPublish } from '../warehouse/index.js';
import { commitRemote, type RemoteCommitResult } from './commit-remote.js';
import { openStore } from './open-store.js';
import { RemoteFailure } from './remote-failure.js';
import type { S3Store } from './s3-store.js';

/** What a command holds while the remote follows its publishes. */
export interface RemoteFollower {
  /** The last commit's failure, undefined once a later commit landed (the remote caught up). */
  readonly failure: RemoteFailure | undefined;
  /** The last commit's result. */
  readonly last: RemoteCommitResult | undefined;
  /** Resolves when the commits started so far have settled. */
  settled(): Promise<void>;
  /** Stops following publishes (after the running commit). */
  detach(): Promise<void>;
}

const CATCH_UP = 'the local publish stands; the next publish or `campaign-warehouse remote push` catches up';

/**
 * After each successful publish of this process, commits the lake to `remote` (commitRemote):
 * the local lake stays primary and is never undone by the remote. Commits run one at a time;
 * publishes during a commit are caught up by one more commit after it. A failure is passed to
 * `onFailure` as one line (bucket, host, S3 error code) and kept in `failure` until a commit
 * lands (`onLanded`); a sync exits 1 with it, the sink logs it and goes on (both notify it:
 * remote_behind).
 */
export function followPublishes(
  remote: RemoteConfig,
  onFailure: (failure: RemoteFailure) => void,
  options: { now?: () => number; onLanded?: (result: RemoteCommitResult) => void } = {},
): RemoteFollower {
  let failure: RemoteFailure | undefined;
  let last: RemoteCommitResult | undefined;
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  let store: Promise<S3Store> | undefined;
  const commit = async (dataDir: string) => {
    try {
      store ??= openStore(remote);
      last = await commitRemote(dataDir, remote, {
        store: await store,
        ...(options.now ? { now: options.now } : {}),
      });
      failure = undefined;
      options.onLanded?.(last);
    } catch (error) {
      failure = asFailure(error, remote);
      onFailure(failure);
    }
  };
  const listener = (dataDir: string) => {
    if (queued) return running;
    queued = true;
    running = running.then(() => {
      queued = false;
      return commit(dataDir);
    });
    return running;
  };
  const previous = setAfterPublish(listener);
  return {
    get failure() {
      return failure;
    },
    get last() {
      return last;
    },
    settled: () => running,
    detach: async () => {
      setAfterPublish(previous);
      await running;
    },
  };
}

/** Any error of a commit as the one line a command prints. */
export function asFailure(error: unknown, remote: RemoteConfig): RemoteFailure {
  const failure =
    error instanceof RemoteFailure
      ? error
      : new RemoteFailure(
          `remote ${remote.url}: ${(error as Error)?.message ?? String(error)}`,
          'Error',
          undefined,
          {
            cause: error,
          },
        );
  if (failure.message.endsWith(CATCH_UP)) return failure;
  return new RemoteFailure(`${failure.message}; ${CATCH_UP}`, failure.code, failure.status, {
    cause: failure.cause,
  });
}
