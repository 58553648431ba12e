/**
 * The bytes of request bodies the sink holds at once, over all requests in flight. Bodies are
 * buffered whole before the signature check (it covers the exact bytes), so without a bound a
 * sender holding a hook's URL (not a strong secret: the API lists it, it passes through the
 * sender's logs) could make the sink buffer any number of bodies at the body limit.
 *
 * Policy: a request claims its declared Content-Length before any byte is read, or, for a
 * chunked body, each chunk as it arrives. A claim that does not fit is refused (the caller
 * answers 503 with Retry-After). Bodies up to SMALL_BODY_BYTES (every genuine delivery: a
 * few documents of a few KB) may use the whole budget; larger ones only the budget less its
 * RESERVED_SHARE, so large unauthenticated bodies can never crowd out genuine deliveries.
 */

/** Bodies up to 1 MiB are "small": hundreds of documents, far above a real delivery. */
export const SMALL_BODY_BYTES = 1024 * 1024;

/** A quarter of the budget is kept for small bodies (16 MiB of the default 64: thousands of deliveries). */
export const RESERVED_SHARE = 0.25;

/** The smallest budget that holds one body of `bodyLimitBytes` beside the reserved share. */
export function budgetForBody(bodyLimitBytes: number): number {
  return Math.ceil(bodyLimitBytes / (1 - RESERVED_SHARE));
}

export class BodyBudget {
  readonly totalBytes: number;
  /** What bodies over SMALL_BODY_BYTES may hold together. */
  readonly largeBytes: number;
  #held = 0;
  #heldLarge = 0;

  constructor(totalBytes: number) {
    this.totalBytes = totalBytes;
    this.largeBytes = Math.floor(totalBytes * (1 - RESERVED_SHARE));
  }

  /** Bytes claimed now, by every request in flight. */
  get heldBytes(): number {
    return this.#held;
  }

  /** A claim for one request's body, empty until it grows; release it once the body is dropped. */
  claim(): BodyClaim {
    let size = 0;
    let released = false;
    return {
      grow: (bytes) => {
        if (released) throw new Error('BodyBudget: a released claim cannot grow');
        const next = size + bytes;
        if (this.#held + bytes > this.totalBytes) return false;
        if (next > SMALL_BODY_BYTES) {
          // A body crossing into "large" moves all its bytes to the large share.
          const large = this.#heldLarge + (size > SMALL_BODY_BYTES ? bytes : next);
          if (large > this.largeBytes) return false;
          this.#heldLarge = large;
        }
        this.#held += bytes;
        size = next;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.#held -= size;
        if (size > SMALL_BODY_BYTES) this.#heldLarge -= size;
      },
    };
  }
}

export interface BodyClaim {
  /** Claims `bytes` more; false (nothing claimed) when they do not fit. */
  grow(bytes: number): boolean;
  /** Gives every byte claimed back (idempotent). */
  release(): void;
}
