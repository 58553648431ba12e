import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { explainHookError, hookErrorMessage } from '../../src/service/explain-hook-error.js';
import {
  generateSecret,
  MAX_SECRET_LENGTH,
  MIN_SECRET_LENGTH,
  validateSecret,
} from '../../src/service/hook-manager.js';
import { UserError } from '../../src/util/user-error.js';

describe('hook secrets', () => {
  it('generates 32 url-safe characters, different each time', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(generateSecret()).not.toBe(a);
  });

  it('accepts 16..64 characters and names the source, never the value, otherwise', () => {
    expect(validateSecret('a'.repeat(MIN_SECRET_LENGTH), 'CW_HOOK_SECRET')).toHaveLength(16);
    expect(validateSecret('b'.repeat(MAX_SECRET_LENGTH), 'CW_HOOK_SECRET')).toHaveLength(64);
    for (const bad of ['c'.repeat(15), 'd'.repeat(65)]) {
      expect(() => validateSecret(bad, 'CW_HOOK_SECRET')).toThrow(UserError);
      try {
        validateSecret(bad, 'CW_HOOK_SECRET');
      } catch (e) {
        expect((e as Error).message).toMatch(/^CW_HOOK_SECRET: a hook secret must be 16 to 64 characters/);
        expect((e as Error).message).not.toContain(bad);
      }
    }
  });
});

describe('hook error messages', () => {
  const create = { operation: 'create', searchId: 7, targetUrl: 'https://s.example/hooks/t' } as const;
  it.each([
    [400, create, /invalid \(400\)/],
    [401, create, /refused the key \(401\): check CW_API_KEY/],
    [403, create, /not entitled to streaming \(403\)/],
    [404, create, /no such search: 7 \(404\)/],
    [404, { operation: 'delete', hookId: 'h1' } as const, /no such hook: h1 \(404\)/],
    [409, create, /a hook already exists for search 7 and target https:\/\/s\.example\/hooks\/t \(409\)/],
  ])('status %i', (status, ctx, expected) => {
    expect(hookErrorMessage(status, ctx)).toMatch(expected);
  });

  it('wraps a known ApiError as a UserError keeping the request id and cause; leaves others alone', () => {
    const api = new ApiError('HTTP 409 on POST /v3/hooks', 'POST /v3/hooks', false, 409, 'req-1');
    const wrapped = explainHookError(api, create);
    expect(wrapped).toBeInstanceOf(UserError);
    expect((wrapped as UserError).message).toMatch(/^hooks create: .*\(409\).*\(X-Request-Id req-1\)$/);
    expect((wrapped as UserError).cause).toBe(api);
    const server = new ApiError('HTTP 500', 'GET /v3/hooks', true, 500);
    expect(explainHookError(server, create)).toBe(server);
    const other = new Error('socket hang up');
    expect(explainHookError(other, create)).toBe(other);
  });
});
