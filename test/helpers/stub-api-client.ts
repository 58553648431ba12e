/**
 * The API client's tests: a client against a stub server (stub-api-server.ts), quick (1,000
 * requests a second, 4 at once, retries from 5 ms) and recording its events.
 * `stubApiClients(apiKey, defaults)` registers, on the calling test file, an `afterEach` that
 * closes every client and stub made in the test, and returns `setup`, which makes one pair.
 */
import { afterEach } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import type { ApiClient, ApiClientOptions, ApiEvent } from '../../src/api/types.js';
import { type StubApiServer, type StubScript, startStubApiServer } from './stub-api-server.js';

export interface StubbedClient {
  readonly stub: StubApiServer;
  readonly client: ApiClient;
  /** Every event the client has emitted, in order. */
  readonly events: ApiEvent[];
  /** Also calls `fn` with each event from now on. */
  setOnEvent(fn: (event: ApiEvent) => void): void;
}

export function stubApiClients(
  apiKey: string,
  defaults: Partial<ApiClientOptions> = {},
): (script: StubScript, extra?: Partial<ApiClientOptions>) => Promise<StubbedClient> {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0)) await fn();
  });
  return async (script, extra = {}) => {
    const stub = await startStubApiServer(script);
    const events: ApiEvent[] = [];
    let onEvent = (_event: ApiEvent) => {};
    const client = createApiClient({
      baseUrl: stub.url,
      apiKey,
      rps: 1000,
      concurrency: 4,
      retryBaseMs: 5,
      onEvent: (event) => {
        events.push(event);
        onEvent(event);
      },
      ...defaults,
      ...extra,
    });
    cleanup.push(
      () => client.close(),
      () => stub.close(),
    );
    return { stub, client, events, setOnEvent: (fn) => (onEvent = fn) };
  };
}
