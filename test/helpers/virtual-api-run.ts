/**
 * A sync's requests against a model of the API on virtual time, through the throttle's
 * pure parts (RateController, StartPacer): the server is a token bucket that says nothing
 * of its limit and/or refuses a share of requests for overload with a Retry-After in a
 * range. Each request is answered LATENCY_MS after it starts; a 429 pauses every start.
 * Deterministic per seed, and as fast as arithmetic: the controller's behaviour over
 * minutes of traffic is tested without waiting for it.
 */
import { RateController } from '../../src/api/throttle/rate-controller.js';
import { StartPacer } from '../../src/api/throttle/start-pacer.js';

export interface VirtualApi {
  readonly bucket?: { readonly rps: number; readonly burst: number };
  readonly overloadShare?: number;
  readonly overloadRetryAfterMs?: readonly [number, number];
}

export interface VirtualRun {
  readonly wallMs: number;
  readonly accepted: number;
  readonly refused: number;
  readonly retryAfterMs: number;
  /** [time ms, rate] at every start. */
  readonly rates: readonly (readonly [number, number])[];
  readonly controller: RateController;
}

const LATENCY_MS = 3;

export function runVirtualApi(rps: number, api: VirtualApi, successes: number, seed = 1): VirtualRun {
  let state = seed >>> 0;
  const random = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const controller = new RateController(rps);
  let now = 0;
  const pacer = new StartPacer({ rps, burst: 1 }, now);
  let pausedUntil = 0;
  let tokens = api.bucket?.burst ?? 0;
  let filledAt = 0;
  const pending: { at: number; sentAt: number; retryAfter?: number }[] = [];
  const rates: [number, number][] = [];
  let accepted = 0;
  let refused = 0;
  let retryAfterMs = 0;
  while (accepted < successes) {
    pacer.update({ rps: controller.rate(now), burst: 1 }, now);
    const next = Math.max(now, pacer.earliest(), pausedUntil) + random(); // timers fire up to 1 ms late
    const reply = pending[0];
    if (reply && reply.at <= next) {
      pending.shift();
      now = reply.at;
      if (reply.retryAfter === undefined) {
        accepted++;
        controller.replied('ok', reply.sentAt, now);
      } else {
        refused++;
        retryAfterMs += reply.retryAfter;
        pausedUntil = Math.max(pausedUntil, now + reply.retryAfter);
        controller.replied('unexplained', reply.sentAt, now, reply.retryAfter);
      }
      continue;
    }
    now = next;
    pacer.take(now);
    rates.push([now, controller.rate(now)]);
    pending.push({ at: now + LATENCY_MS, sentAt: now, ...answer(now + 1) });
  }
  return { wallMs: now, accepted, refused, retryAfterMs, rates, controller };

  function answer(at: number): { retryAfter?: number } {
    if (api.bucket) {
      tokens = Math.min(api.bucket.burst, tokens + ((at - filledAt) / 1000) * api.bucket.rps);
      filledAt = at;
      if (tokens < 1) return { retryAfter: ((1 - tokens) / api.bucket.rps) * 1000 };
      tokens -= 1;
    }
    if (api.overloadShare && random() < api.overloadShare) {
      const [min, max] = api.overloadRetryAfterMs ?? [1000, 1000];
      return { retryAfter: min + random() * (max - min) };
    }
    return {};
  }
}
