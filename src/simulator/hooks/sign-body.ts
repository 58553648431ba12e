/**
 * The push signature of the streaming API (api-profile.md, "Pushed documents"): HMAC keyed
 * with the hook's shared secret over the exact raw body bytes, sent as
 * `X-Hub-Signature: sha1=<40 lowercase hex>` and `X-Hub-Signature-256: sha256=<64 lowercase hex>`.
 * Pure, so receivers' tests can use it as the reference signer.
 */
import { createHmac } from 'node:crypto';

export interface BodySignature {
  /** Value of the X-Hub-Signature header: `sha1=<hex>`. */
  readonly sha1: string;
  /** Value of the X-Hub-Signature-256 header: `sha256=<hex>`. */
  readonly sha256: string;
}

/** Signs `body` (a string is taken as its UTF-8 bytes) with `secret`; returns both header values. */
export function signBody(secret: string, body: Buffer | string): BodySignature {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return {
    sha1: `sha1=${createHmac('sha1', secret).update(bytes).digest('hex')}`,
    sha256: `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`,
  };
}
