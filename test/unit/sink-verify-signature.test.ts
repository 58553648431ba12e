import { describe, expect, it } from 'vitest';
import { signBody } from '../../src/simulator/hooks/sign-body.js';
import { verifySignature } from '../../src/sink/verify-signature.js';

// Vectors computed once with an independent implementation (OpenSSL 3):
//   printf '%s' "$BODY" | openssl dgst -sha1 -hmac "$SECRET"   (and -sha256)
const SECRET = 'It5-a-sh4red-secret-0f-32-chars!';
const ASCII_BODY =
  '{"request":{"hook_id":"h-1","search_id":7,"company_id":"c1"},"documents":[{"id":"d1","title":"Caf\\u00e9"}]}';
const ASCII_SHA1 = 'sha1=0e9c97cb245d6d703a9bc86491ad6ee9cee06b1e';
const ASCII_SHA256 = 'sha256=3d82bbcf08c4a5d71c91720855ddd00da8b8b3c1a5dd3757c0ebd65cfa6b6b6a';
// Raw UTF-8 bytes (é = c3 a9): the signature is over bytes, not over a re-encoded string.
const UTF8_BODY = Buffer.from('{"documents":[{"id":"é"}]}', 'utf8');
const UTF8_SHA1 = 'sha1=7a8ab0df3df5a1fa05c02a1b924bd2448ea14261';
const UTF8_SHA256 = 'sha256=1518d47f35115f85fc6511728a451fc84ef7c2bdfd1c78b734b0386c7419f0af';

describe('verifySignature', () => {
  it('accepts the OpenSSL-computed vectors', () => {
    const body = Buffer.from(ASCII_BODY, 'utf8');
    expect(verifySignature(SECRET, body, ASCII_SHA1, undefined)).toBe(true);
    expect(verifySignature(SECRET, body, ASCII_SHA1, ASCII_SHA256)).toBe(true);
    expect(verifySignature(SECRET, UTF8_BODY, UTF8_SHA1, UTF8_SHA256)).toBe(true);
  });

  it('accepts upper-case hex and surrounding spaces', () => {
    const upper = `sha1=${UTF8_SHA1.slice('sha1='.length).toUpperCase()}`;
    expect(verifySignature(SECRET, UTF8_BODY, ` ${upper} `, undefined)).toBe(true);
  });

  it('refuses a missing, malformed or wrong sha1 when no sha256 header is sent', () => {
    const body = Buffer.from(ASCII_BODY, 'utf8');
    expect(verifySignature(SECRET, body, undefined, undefined)).toBe(false);
    expect(verifySignature(SECRET, body, '0e9c97cb245d6d703a9bc86491ad6ee9cee06b1e', undefined)).toBe(false);
    expect(verifySignature(SECRET, body, 'sha1=0e9c', undefined)).toBe(false);
    expect(verifySignature(SECRET, body, UTF8_SHA1, undefined)).toBe(false);
    expect(verifySignature('another-secret-of-32-characters!', body, ASCII_SHA1, undefined)).toBe(false);
  });

  it('checks only sha256 when present: a good sha256 with a bad or missing sha1 is accepted', () => {
    const body = Buffer.from(ASCII_BODY, 'utf8');
    expect(verifySignature(SECRET, body, undefined, ASCII_SHA256)).toBe(true);
    expect(verifySignature(SECRET, body, UTF8_SHA1, ASCII_SHA256)).toBe(true);
    expect(verifySignature(SECRET, body, 'sha1=0e9c', ASCII_SHA256)).toBe(true);
  });

  it('refuses a bad or malformed sha256 even with a good sha1 (no downgrade)', () => {
    const body = Buffer.from(ASCII_BODY, 'utf8');
    expect(verifySignature(SECRET, body, ASCII_SHA1, UTF8_SHA256)).toBe(false);
    expect(verifySignature(SECRET, body, ASCII_SHA1, 'sha256=abc')).toBe(false);
    expect(verifySignature(SECRET, body, ASCII_SHA1, ASCII_SHA1)).toBe(false);
    expect(verifySignature(SECRET, body, ASCII_SHA1, '')).toBe(false);
    expect(verifySignature('another-secret-of-32-characters!', body, ASCII_SHA1, ASCII_SHA256)).toBe(false);
  });

  it('refuses a body changed by one byte', () => {
    const body = Buffer.from(ASCII_BODY.replace('d1', 'd2'), 'utf8');
    expect(verifySignature(SECRET, body, ASCII_SHA1, ASCII_SHA256)).toBe(false);
    expect(verifySignature(SECRET, body, ASCII_SHA1, undefined)).toBe(false);
  });

  it("agrees with the simulator's signer", () => {
    const body = Buffer.from('{"documents":[{"id":"x","n":1}]}');
    const { sha1, sha256 } = signBody(SECRET, body);
    expect(verifySignature(SECRET, body, sha1, sha256)).toBe(true);
    expect(signBody(SECRET, UTF8_BODY)).toEqual({ sha1: UTF8_SHA1, sha256: UTF8_SHA256 });
  });
});
