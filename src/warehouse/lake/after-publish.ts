/**
 * What runs after each successful publish of this process, outside the publish lock: the
 * commit of the lake to object storage (src/remote/). The local publish stands whatever it
 * does: a listener reports its own failures and never throws into the publish's caller.
 */
export type AfterPublish = (dataDir: string) => Promise<void>;

let listener: AfterPublish | undefined;

/** Sets (or, with undefined, clears) the listener; returns the one it replaces. */
export function setAfterPublish(next: AfterPublish | undefined): AfterPublish | undefined {
  const previous = listener;
  listener = next;
  return previous;
}

/** Runs the listener, if any, after a publish of `dataDir`; a failure it let through is dropped. */
export async function runAfterPublish(dataDir: string): Promise<void> {
  await listener?.(dataDir).catch(() => {});
}
