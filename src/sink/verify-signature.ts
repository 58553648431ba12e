import { createHmac, timingSafeEqual } from 'node:crypto';

const SHA1_HEADER = /^sha1=([0-9a-f]{40})$/i;
const SHA256_HEADER = /^sha256=([0-9a-f]{64})$/i;

/**
 * Checks a push's signatures over the exact raw body bytes with the hook's secret:
 * `X-Hub-Signature: sha1=<hex>` is required; `X-Hub-Signature-256: sha256=<hex>` is checked
 * too when present, and both must match. Comparison is constant-time (timingSafeEqual on
 * equal-length digests); a malformed header is a mismatch.
 */
export function verifySignature(
  secret: string,
  body: Buffer,
  sha1Header: string | undefined,
  sha256Header: string | undefined,
): boolean {
  if (!matches('sha1', SHA1_HEADER, secret, body, sha1Header)) return false;
  if (sha256Header === undefined) return true;
  return matches('sha256', SHA256_HEADER, secret, body, sha256Header);
}

function matches(
  algorithm: 'sha1' | 'sha256',
  pattern: RegExp,
  secret: string,
  body: Buffer,
  header: string | undefined,
): boolean {
  const hex = header === undefined ? undefined : pattern.exec(header.trim())?.[1];
  if (hex === undefined) return false;
  const expected = createHmac(algorithm, secret).update(body).digest();
  const given = Buffer.from(hex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
