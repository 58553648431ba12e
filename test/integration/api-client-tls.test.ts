import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { FatalApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { type StubApiServer, startStubApiServer } from '../helpers/stub-api-server.js';

let stub: StubApiServer;
let cert: string;

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  cert = pems.cert;
  stub = await startStubApiServer(() => ({ body: { campaign: { id: '1' } } }), {
    tls: { key: pems.private, cert: pems.cert },
  });
});
afterAll(() => stub.close());

async function withClient<T>(ca: string | undefined, fn: (c: ApiClient) => Promise<T>): Promise<T> {
  const client = createApiClient({
    baseUrl: stub.url,
    apiKey: 'tls-test-key-0123456789',
    rps: 100,
    concurrency: 1,
    maxRetries: 1,
    retryBaseMs: 5,
    ...(ca ? { ca } : {}),
  });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('API client over HTTPS', () => {
  it('trusts a self-signed certificate given as ca', async () => {
    expect(stub.url).toMatch(/^https:/);
    expect(await withClient(cert, (c) => c.campaign('1'))).toEqual({ id: '1' });
  });

  it('refuses it without ca, at once and saying so', async () => {
    const before = stub.requests.length;
    const error = await withClient(undefined, (c) => c.campaign('1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalApiError);
    expect((error as Error).message).toMatch(
      /TLS certificate not trusted on GET \/v3\/influencers\/campaigns\/1/,
    );
    expect(stub.requests.length).toBe(before);
  });
});
