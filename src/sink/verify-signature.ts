import { createHmac, timingSafeEqual } from 'node:crypto';

const SHA1_HEADER = /^sha1=([0-9a-f]{40})$/i;
const SHA256_HEADER = /^sha256=([0-9a-f]{64})$/i;

/**
 * Checks a push's signature over the exact raw body bytes with the hook's secret, the
 * strongest one the push carries (the rule GitHub documents for its hooks):
 * `X-Hub-Signature-256: sha256=<hex>` when that header is present, otherwise
 * `X-Hub-Signature: sha1=<hex>`. A present SHA-256 header decides alone: a bad one is never
 * excused by a good SHA-1 (no downgrade), and the SHA-1 header is then not checked. Neither
 * header, or a malformed one, is a mismatch. Comparison is constant-time (timingSafeEqual on
 * equal-length digests).
 */
export function verifySignature(
  secret: string,
  body: Buffer,
  sha1Header: string | undefined,
  sha256Header: string | undefined,
): boolean {
  if (sha256Header !== undefined) return matches('sha256', SHA256_HEADER, secret, body, sha256Header);
  return matches('sha1', SHA1_HEADER, secret, body, sha1Header);
}

/**
 * Whether the push carries a well-formed signature header where verifySignature looks (the
 * SHA-256 one when present, else the SHA-1 one): checked before the body is read, since a
 * push without one is refused whatever its body.
 */
export function hasSignatureHeader(
  sha1Header: string | undefined,
  sha256Header: string | undefined,
): boolean {
  if (sha256Header !== undefined) return SHA256_HEADER.test(sha256Header.trim());
  return sha1Header !== undefined && SHA1_HEADER.test(sha1Header.trim());
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
