/**
 * The simulator's in-memory hook registry: records, the status lifecycle and the public
 * Hook view. Secrets stay inside the records; `toHookBody` never exposes them.
 *
 * Lifecycle: PENDING at creation -> ACTIVE after the first acknowledged delivery ->
 * HALTED after `haltAfterFailures` consecutive failed attempts (deliveries then stop).
 * PAUSED exists in the API but the simulator only sets it through `setStatus`.
 * Every status change bumps `version` and `updated`.
 */
import { stableHex } from '../prng.js';
import type { SearchType } from './searches.js';

export type HookStatus = 'PENDING' | 'ACTIVE' | 'PAUSED' | 'HALTED';

export interface HookRecord {
  readonly hookId: string;
  /** Creation order in this run (1-based): seeds the hook's documents. */
  readonly ordinal: number;
  readonly searchId: number;
  readonly searchType: SearchType;
  /** As the caller sent it. */
  readonly targetUrl: string;
  /** WHATWG-normalized target, for the duplicate (409) check. */
  readonly normalizedTarget: string;
  readonly companyId: string;
  readonly secret: string;
  status: HookStatus;
  updated: Date;
  version: number;
  consecutiveFailures: number;
}

/** The Hook resource of api-v3.md as the API returns it. */
export interface HookBody {
  readonly hook_id: string;
  readonly search_id: number;
  readonly target_url: string;
  readonly search_type: SearchType;
  readonly updated: string;
  readonly version: string;
  readonly status: HookStatus;
}

/** What a caller gives to create a hook: the record less what the store sets. */
export type NewHook = Omit<
  HookRecord,
  'hookId' | 'ordinal' | 'status' | 'updated' | 'version' | 'consecutiveFailures'
>;

export class HookStore {
  private readonly hooks = new Map<string, HookRecord>();
  private created = 0;

  constructor(private readonly seed: number) {}

  create(hook: NewHook, now: Date): HookRecord {
    this.created += 1;
    const record: HookRecord = {
      ...hook,
      // 24 hex characters like the real service's ids; deterministic per seed and order.
      hookId: stableHex(24, this.seed, 'hook', this.created),
      ordinal: this.created,
      status: 'PENDING',
      updated: now,
      version: 1,
      consecutiveFailures: 0,
    };
    this.hooks.set(record.hookId, record);
    return record;
  }

  get(hookId: string): HookRecord | undefined {
    return this.hooks.get(hookId);
  }

  /** Live hooks in creation order. */
  list(): readonly HookRecord[] {
    return [...this.hooks.values()];
  }

  findLive(searchId: number, normalizedTarget: string): HookRecord | undefined {
    return this.list().find((h) => h.searchId === searchId && h.normalizedTarget === normalizedTarget);
  }

  delete(hookId: string): boolean {
    return this.hooks.delete(hookId);
  }

  setStatus(record: HookRecord, status: HookStatus, now: Date): void {
    if (record.status === status) return;
    record.status = status;
    record.version += 1;
    record.updated = now;
  }
}

export function toHookBody(record: HookRecord): HookBody {
  return {
    hook_id: record.hookId,
    search_id: record.searchId,
    target_url: record.targetUrl,
    search_type: record.searchType,
    updated: record.updated.toISOString(),
    version: String(record.version),
    status: record.status,
  };
}
