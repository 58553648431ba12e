import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody } from '../../src/simulator/hooks/sign-body.js';

describe('signBody', () => {
  it('matches the published HMAC test vectors', () => {
    const signature = signBody('key', 'The quick brown fox jumps over the lazy dog');
    expect(signature.sha1).toBe('sha1=de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9');
    expect(signature.sha256).toBe('sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });

  it('signs a string as its UTF-8 bytes, identical to the Buffer form', () => {
    const text = '{"title":"El País: Müller über Chloé ✓"}';
    expect(signBody('s'.repeat(32), text)).toEqual(signBody('s'.repeat(32), Buffer.from(text, 'utf8')));
  });

  it('produces lowercase hex of the right length that node:crypto verifies', () => {
    const body = Buffer.from('{"documents":[]}');
    const secret = 'a-secret-of-24-chars-xyz';
    const { sha1, sha256 } = signBody(secret, body);
    expect(sha1).toMatch(/^sha1=[0-9a-f]{40}$/);
    expect(sha256).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(sha1.slice(5)).toBe(createHmac('sha1', secret).update(body).digest('hex'));
    expect(sha256.slice(7)).toBe(createHmac('sha256', secret).update(body).digest('hex'));
  });

  it('changes with one byte of the body or of the secret', () => {
    const base = signBody('0123456789abcdef', '{"a":1}');
    expect(signBody('0123456789abcdef', '{"a":2}').sha1).not.toBe(base.sha1);
    expect(signBody('0123456789abcdeF', '{"a":1}').sha256).not.toBe(base.sha256);
  });
});
