import type { ThrottleState } from './throttle/throttle.js';
import type { ApiStats } from './types.js';

/** A client's counters, zero at first; the rate and its reason are read from the throttle. */
export function createApiStats(throttle: { readonly state: ThrottleState }): ApiStats {
  return {
    requests: 0,
    retries: 0,
    overloaded: 0,
    rateLimited: 0,
    overloadWaitMs: 0,
    rateLimitWaitMs: 0,
    get throttled() {
      return this.overloaded + this.rateLimited;
    },
    get throttleWaitMs() {
      return this.overloadWaitMs + this.rateLimitWaitMs;
    },
    get rateRps() {
      return throttle.state.rps;
    },
    get rateReason() {
      return throttle.state.reason;
    },
  };
}
