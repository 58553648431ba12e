/**
 * Finding the delivery that fails a publish, when the publish failed for a reason that may be
 * one delivery's (not the place's: see whole-publish-failure.ts). The failed batch is split in
 * halves, each published (or split again) in delivery_id order, so what is published stays a
 * prefix of the inbox; a delivery that fails alone is a suspect.
 *
 * A suspect is set aside only once the place has shown it works: a publish of this cycle
 * succeeded (before it, or after it: the suspects held then are set aside in the same
 * transaction that moves the watermark past them). A cycle in which nothing publishes sets
 * nothing aside and fails as a whole (retried next interval), so a failure of the place that
 * no rule recognises still never quarantines good documents.
 */

/** A delivery that failed a publish alone, and that failure. */
export interface Suspect {
  readonly deliveryId: number;
  readonly error: unknown;
}

export interface ApartSteps {
  /** Publishes the pending deliveries `ids` (consecutive in the inbox's order); what it published. */
  publish(ids: readonly number[]): Promise<{ deliveries: number; documents: number }>;
  /** After `ids` up to `lastId` published: sets `held` aside and moves the watermark through `lastId`, at once. */
  published(lastId: number, held: readonly Suspect[]): void;
  /** Sets a suspect aside now (a publish of this cycle succeeded). */
  setAside(suspect: Suspect): void;
  /** True for a failure of the place (thrown at once: nothing is set aside). */
  isWhole(error: unknown): boolean;
}

export interface ApartResult {
  readonly deliveries: number;
  readonly documents: number;
  readonly publishes: number;
  /** False when the cycle's budget of publishes ran out first: the rest waits for the next cycle. */
  readonly complete: boolean;
}

/**
 * The most publishes one search may try: one bad delivery among the 20,000 of a full batch
 * takes about 2 x log2(20,000) = 30; more bad ones are found over the next cycles.
 */
export const MAX_PUBLISHES_APART = 64;

/**
 * Publishes `ids` (whose publish as one batch failed with `failure`) apart, setting aside the
 * deliveries that fail alone (see the file's comment). Throws `failure` when no publish
 * succeeded, or the failure of the place met on the way.
 */
export async function publishApart(
  ids: readonly number[],
  failure: unknown,
  steps: ApartSteps,
): Promise<ApartResult> {
  const held: Suspect[] = [];
  // Failures before any success: past a path down the halves and a couple more, the place is
  // failing, not one delivery.
  const blindLimit = Math.ceil(Math.log2(Math.max(ids.length, 2))) + 2;
  let confirmed = false;
  let blind = 0;
  let attempts = 0;
  let deliveries = 0;
  let documents = 0;
  let publishes = 0;

  /** Publishes `part` or, failing, its halves; false when the budget ran out. */
  const publishPart = async (part: readonly number[], known?: { error: unknown }): Promise<boolean> => {
    let failed = known;
    if (!failed) {
      if (attempts >= MAX_PUBLISHES_APART) return false;
      attempts += 1;
      try {
        const done = await steps.publish(part);
        steps.published(part[part.length - 1] as number, held.splice(0));
        confirmed = true;
        deliveries += done.deliveries;
        documents += done.documents;
        publishes += 1;
        return true;
      } catch (error) {
        if (steps.isWhole(error)) throw error;
        if (!confirmed && ++blind > blindLimit) throw failure;
        failed = { error };
      }
    }
    if (part.length === 1) {
      const suspect = { deliveryId: part[0] as number, error: failed.error };
      if (confirmed) steps.setAside(suspect);
      else held.push(suspect);
      return true;
    }
    const middle = Math.ceil(part.length / 2);
    return (await publishPart(part.slice(0, middle))) && publishPart(part.slice(middle));
  };

  const complete = await publishPart(ids, { error: failure });
  if (held.length) throw failure;
  return { deliveries, documents, publishes, complete };
}
