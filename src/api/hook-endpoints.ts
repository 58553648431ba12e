import { headerOf } from '../util/header-of.js';
import { FatalApiError } from './errors.js';
import type { Requester } from './requester.js';
import type { ApiClient, Hook } from './types.js';

type HookEndpoints = Pick<ApiClient, 'listHooks' | 'getHook' | 'createHook' | 'deleteHook'>;

const hookPath = (id: string) => `/v3/hooks/${encodeURIComponent(id)}`;

/** The hooks: listed, read, created (the secret is the X-Hook-Secret reply header), deleted. */
export function hookEndpoints(api: Requester): HookEndpoints {
  return {
    async listHooks() {
      const hooks: Hook[] = [];
      for await (const page of api.list('/v3/hooks', 'hooks')) hooks.push(...(page as Hook[]));
      return hooks;
    },
    async getHook(hookId) {
      const path = hookPath(hookId);
      return api.unwrap(await api.get(path), 'hook', `GET ${path}`) as Hook;
    },
    async createHook(input) {
      const reply = await api.call({
        method: 'POST',
        path: '/v3/hooks',
        query: { company_id: input.companyId },
        body: { target_url: input.targetUrl, search_id: input.searchId },
        ...(input.secret ? { headers: { 'x-hook-secret': input.secret } } : {}),
      });
      const hook = api.unwrap(reply.json, 'hook', 'POST /v3/hooks') as Hook;
      return { hook, secret: headerOf(reply, 'x-hook-secret') };
    },
    async deleteHook(hookId) {
      const path = hookPath(hookId);
      const reply = await api.call({ method: 'DELETE', path });
      // The spec answers 204; a 200 is tolerated (the hook is gone either way).
      if (reply.status !== 204 && reply.status !== 200)
        throw new FatalApiError(
          `unexpected ${reply.status} on DELETE ${path}`,
          `DELETE ${path}`,
          reply.status,
        );
    },
  };
}
