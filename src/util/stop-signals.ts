/**
 * SIGTERM and SIGINT for a long-running command (sink, serve, simulate), listened to before it
 * starts anything, so a signal that arrives while it starts still stops it gracefully. While
 * listened to, the signals no longer end the process (Node's default), so the command acts on
 * `requested` in every state, and dispose() gives the default back: a command that fails to
 * start must never leave behind a signal handler that does nothing. A second signal while
 * stopping ends the process at once (an operator's "stop now").
 */
export interface StopSignals {
  /** Resolves with the first signal. */
  readonly requested: Promise<NodeJS.Signals>;
  /**
   * The first signal received, if any, after letting the event loop turn once: a signal that
   * arrived while a step of the start held the loop (a database upgrade waiting for a lock) is
   * only delivered then. Called after each such step, before going on.
   */
  receivedYet(): Promise<NodeJS.Signals | undefined>;
  dispose(): void;
}

export async function listenForStop(): Promise<StopSignals> {
  let received: NodeJS.Signals | undefined;
  let resolve: (signal: NodeJS.Signals) => void = () => {};
  const requested = new Promise<NodeJS.Signals>((r) => {
    resolve = r;
  });
  const onSignal = (signal: NodeJS.Signals): void => {
    if (received !== undefined) {
      process.stderr.write(`campaign-warehouse: ${signal} while stopping: exiting now\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    received = signal;
    resolve(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // libuv watches the signals from the event loop's next poll on: until then a signal that
  // arrives while the start holds the loop is seen a turn late, after the command has gone
  // on.
  await oneTurn();
  return {
    requested,
    receivedYet: async () => {
      await oneTurn();
      return received;
    },
    dispose: () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}

function oneTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
