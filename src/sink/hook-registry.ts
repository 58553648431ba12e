import type { Row } from '../normalize/rows.js';
import type { Statement } from '../state/sqlite-database.js';
import type { StateDb } from '../state/state-db.js';

/** What a push needs of its hook: who it is and the key that signs its body. */
export interface RegisteredHook {
  readonly hookId: string;
  readonly searchId: number;
  readonly searchType: string | null;
  /** HMAC key; never logged, returned or copied. */
  readonly secret: string;
}

interface HookByTokenRow {
  hook_id: string;
  search_id: number;
  search_type: string | null;
  secret: string;
}

/** Status written to the warehouse for a hook deleted from the registry. */
export const DELETED_HOOK_STATUS = 'DELETED';

/**
 * Reads the hook registry of state.sqlite for the sink. Hooks found are cached until
 * `PRAGMA data_version` says another connection (the `hooks` commands, another process)
 * committed to the file; the pragma runs once per event-loop turn, not per push, so a hook
 * deleted elsewhere is refused from the next turn on (pushes of the same turn were already
 * in flight with the deletion). Unknown tokens are never cached: a hook is usable the
 * moment it is registered. The sink itself never writes hooks through this connection (its
 * own writes would not change data_version).
 */
export class HookRegistry {
  readonly #byToken: Statement<[string], HookByTokenRow>;
  readonly #all: Statement<[], Row>;
  readonly #dataVersion: Statement<[], number>;
  readonly #cache = new Map<string, RegisteredHook>();
  #cachedVersion: number | undefined;
  #checkedThisTurn = false;

  constructor(state: StateDb) {
    this.#byToken = state.sqlite.prepare(
      'select hook_id, search_id, search_type, secret from hooks where path_token = ? and deleted_at is null',
    );
    // The warehouse's `hooks` table: never the secret, path token or company.
    this.#all = state.sqlite.prepare(
      `select hook_id, search_id, search_type, target_url,
              case when deleted_at is null then status else '${DELETED_HOOK_STATUS}' end as status,
              updated, version, created_at, deleted_at
       from hooks order by hook_id`,
    );
    this.#dataVersion = state.sqlite.prepare<[], number>('pragma data_version').pluck();
  }

  /** The live hook whose path token this is; undefined when unknown or deleted. */
  byPathToken(token: string): RegisteredHook | undefined {
    if (!this.#checkedThisTurn) {
      this.#checkedThisTurn = true;
      setImmediate(() => {
        this.#checkedThisTurn = false;
      });
      const version = this.#dataVersion.get();
      if (version !== this.#cachedVersion) {
        this.#cache.clear();
        this.#cachedVersion = version;
      }
    }
    const cached = this.#cache.get(token);
    if (cached) return cached;
    const row = this.#byToken.get(token);
    if (!row) return undefined;
    const hook = {
      hookId: row.hook_id,
      searchId: row.search_id,
      searchType: row.search_type,
      secret: row.secret,
    };
    this.#cache.set(token, hook);
    return hook;
  }

  /** Every hook of the registry as `hooks` warehouse rows (no secrets). */
  warehouseRows(): Row[] {
    return this.#all.all();
  }
}
