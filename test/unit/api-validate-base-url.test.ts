import { describe, expect, it } from 'vitest';
import { validateBaseUrl, validateHttpsUrl } from '../../src/api/validate-base-url.js';
import { UserError } from '../../src/util/user-error.js';

describe('validateBaseUrl', () => {
  it('accepts https:// anywhere', () => {
    expect(validateBaseUrl('https://api.example.com').host).toBe('api.example.com');
  });
  it('accepts http:// on loopback hosts only', () => {
    for (const ok of [
      'http://127.0.0.1:8080',
      'http://127.1.2.3',
      'http://localhost:3000',
      'http://[::1]:9000',
    ])
      expect(validateBaseUrl(ok).protocol, ok).toBe('http:');
  });
  it('refuses plain http:// elsewhere with a UserError naming the problem', () => {
    for (const bad of ['http://api.example.com', 'http://10.0.0.1', 'http://127.0.0.1.example.com']) {
      expect(() => validateBaseUrl(bad), bad).toThrow(UserError);
      expect(() => validateBaseUrl(bad), bad).toThrow(/https:\/\//);
    }
  });
  it('refuses what is not a URL or another scheme', () => {
    expect(() => validateBaseUrl('api.example.com')).toThrow(/not a URL/);
    expect(() => validateBaseUrl('ftp://api.example.com')).toThrow(UserError);
  });
  it('refuses a base URL ending in /v3 (requests would go to /v3/v3/...), saying to leave it out', () => {
    for (const bad of [
      'https://api.example.com/v3',
      'https://api.example.com/v3/',
      'https://x.example/api/v3',
    ])
      expect(() => validateBaseUrl(bad), bad).toThrow(/ends in \/v3: give it without \/v3/);
    expect(validateBaseUrl('https://api.example.com/v3x').pathname).toBe('/v3x');
  });
  it("applies the same rule to a hook's target URL, named", () => {
    expect(() => validateHttpsUrl('http://sink.example.com', '--target-url')).toThrow(
      /^--target-url http:\/\/sink\.example\.com must use https:\/\//,
    );
    expect(validateHttpsUrl('http://127.0.0.1:8787', '--target-url').port).toBe('8787');
  });
});
