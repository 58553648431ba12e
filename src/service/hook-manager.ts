/**
 * Hook management: the API's hooks merged with the local registry (state.sqlite), which
 * keeps the secret each hook's pushes are signed with. Each hook's target URL ends in a
 * path token of its own (`/hooks/<token>`), so the sink finds the hook — and so the secret
 * — from the URL, without trusting the unverified body.
 */
import { randomBytes } from 'node:crypto';
import type { ApiClient, Hook } from '../api/types.js';
import { hookPath, newPathToken } from '../sink/hook-path.js';
import { eq } from '../state/drizzle.js';
import { hooks } from '../state/schema.js';
import type { StateDb } from '../state/state-db.js';
import { UserError } from '../util/user-error.js';
import { explainHookError } from './explain-hook-error.js';

/** 24 random bytes = 32 base64url characters: inside the API's 16..64 and far beyond guessing. */
const SECRET_BYTES = 24;
export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 64;

export type LocalHook = typeof hooks.$inferSelect;

/** A hook as `hooks list/get` show it: never the secret, only whether it is held. */
export interface HookView {
  hook_id: string;
  search_id: number | null;
  search_type: string | null;
  target_url: string | null;
  status: string | null;
  updated: string | null;
  version: string | null;
  /** held: pushes verify; not held: the hook was made elsewhere, its pushes are refused. */
  secret: 'held' | 'not held';
  /** present: the API knows it; missing: only the local registry does; deleted: deleted locally. */
  remote: 'present' | 'missing' | 'deleted';
}

export function generateSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

export function validateSecret(secret: string, source: string): string {
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    throw new UserError(
      `${source}: a hook secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters (got ${secret.length})`,
    );
  }
  return secret;
}

export class HookManager {
  private readonly openState: () => StateDb;

  /**
   * `state` may be a function that opens it: the registry is then opened only when first used,
   * after the API's answer for list and get, so a refused key creates no state database.
   */
  constructor(
    private readonly client: ApiClient,
    state: StateDb | (() => StateDb),
    private readonly now: () => Date = () => new Date(),
  ) {
    this.openState = typeof state === 'function' ? state : () => state;
  }

  private get state(): StateDb {
    return this.openState();
  }

  /** Creates the hook on the API and keeps it, with its secret, in the registry. */
  async create(input: {
    searchId: number;
    sinkUrl: string;
    companyId?: string;
    secret?: string;
  }): Promise<HookView> {
    const base = new URL(input.sinkUrl);
    const token = newPathToken();
    const targetUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}${hookPath(token)}`;
    const sent = input.secret ?? generateSecret();
    const { hook, secret } = await this.client
      .createHook({
        searchId: input.searchId,
        targetUrl,
        secret: sent,
        ...(input.companyId ? { companyId: input.companyId } : {}),
      })
      .catch((error: unknown) => {
        throw explainHookError(error, { operation: 'create', searchId: input.searchId, targetUrl });
      });
    const row = {
      hookId: String(hook.hook_id),
      searchId: Number(hook.search_id ?? input.searchId),
      searchType: hook.search_type ?? null,
      targetUrl: hook.target_url ?? targetUrl,
      pathToken: token,
      // The API's X-Hook-Secret is authoritative: it signs with what it returned.
      secret: secret ?? sent,
      companyId: input.companyId ?? null,
      status: hook.status ?? null,
      updated: hook.updated ?? null,
      version: hook.version ?? null,
      createdAt: this.now().toISOString(),
    };
    this.state.db
      .insert(hooks)
      .values(row)
      // An id the API hands out again (e.g. a restarted simulator) replaces the stale local record.
      .onConflictDoUpdate({ target: hooks.hookId, set: { ...row, deletedAt: null } })
      .run();
    return view(hook, this.local(String(hook.hook_id)));
  }

  async list(): Promise<HookView[]> {
    const remote = await this.client.listHooks().catch((error: unknown) => {
      throw explainHookError(error, { operation: 'list' });
    });
    const seen = new Set<string>();
    const views = remote.map((hook) => {
      seen.add(String(hook.hook_id));
      return view(hook, this.local(String(hook.hook_id)));
    });
    for (const local of this.state.db.select().from(hooks).all()) {
      if (!seen.has(local.hookId)) views.push(view(undefined, local));
    }
    return views;
  }

  async get(hookId: string): Promise<HookView> {
    let hook: Awaited<ReturnType<ApiClient['getHook']>>;
    try {
      hook = await this.client.getHook(hookId);
    } catch (error) {
      const local = statusOf(error) === 404 ? this.local(hookId) : undefined;
      if (local) return view(undefined, local);
      throw explainHookError(error, { operation: 'get', hookId });
    }
    this.refresh(hook);
    return view(hook, this.local(hookId));
  }

  /** Deletes the hook on the API and marks it deleted locally (a 404 remotely still does the latter). */
  async delete(hookId: string): Promise<{ remote: 'deleted' | 'already gone' }> {
    const local = this.local(hookId);
    let remote: 'deleted' | 'already gone' = 'deleted';
    try {
      await this.client.deleteHook(hookId);
    } catch (error) {
      if (statusOf(error) !== 404 || !local) throw explainHookError(error, { operation: 'delete', hookId });
      remote = 'already gone';
    }
    if (local) {
      this.state.db
        .update(hooks)
        .set({ deletedAt: this.now().toISOString(), status: 'DELETED' })
        .where(eq(hooks.hookId, hookId))
        .run();
    }
    return { remote };
  }

  private local(hookId: string): LocalHook | undefined {
    return this.state.db.select().from(hooks).where(eq(hooks.hookId, hookId)).get();
  }

  private refresh(hook: Hook): void {
    this.state.db
      .update(hooks)
      .set({ status: hook.status ?? null, updated: hook.updated ?? null, version: hook.version ?? null })
      .where(eq(hooks.hookId, String(hook.hook_id)))
      .run();
  }
}

function view(remote: Hook | undefined, local: LocalHook | undefined): HookView {
  return {
    hook_id: String(remote?.hook_id ?? local?.hookId),
    search_id: remote?.search_id ?? local?.searchId ?? null,
    search_type: remote?.search_type ?? local?.searchType ?? null,
    target_url: remote?.target_url ?? local?.targetUrl ?? null,
    status: local?.deletedAt ? 'DELETED' : (remote?.status ?? local?.status ?? null),
    updated: remote?.updated ?? local?.updated ?? null,
    version: remote?.version ?? local?.version ?? null,
    secret: local && !local.deletedAt && local.secret ? 'held' : 'not held',
    remote: local?.deletedAt ? 'deleted' : remote ? 'present' : 'missing',
  };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
