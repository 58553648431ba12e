/**
 * The built CLI's tests against an API with faults: the simulator on loopback behind a stub
 * (stub-api-server.ts) that passes every request on until the test scripts otherwise. Calling
 * `simBehindStub` registers, on the calling test file, a `beforeAll` that makes sure the built
 * CLI is current and starts both servers, and an `afterAll` that closes them.
 */
import { afterAll, beforeAll } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { ensureBuiltCli } from './built-cli.js';
import { forwardTo, type StubApiServer, type StubScript, startStubApiServer } from './stub-api-server.js';
import { SMALL, startSim } from './sync-harness.js';

/** The path of one campaign's posts; its group 1 is the campaign's id. */
export const CAMPAIGN_POSTS = /^\/v3\/influencers\/campaigns\/([^/]+)\/posts$/;

export interface SimBehindStub {
  readonly sim: RunningSimulator;
  /** The server the CLI is pointed at (`stub.url`); `stub.script(...)` sets its faults. */
  readonly stub: StubApiServer;
  /** The script that passes a request on to the simulator unchanged. */
  readonly forward: StubScript;
}

/** A small simulated account of `campaigns` campaigns behind a stub, up from `beforeAll` on. */
export function simBehindStub(campaigns: number): SimBehindStub {
  let sim: RunningSimulator | undefined;
  let started: SimBehindStub | undefined;
  const get = (): SimBehindStub => {
    if (!started) throw new Error('simBehindStub: used before its beforeAll ran');
    return started;
  };
  beforeAll(async () => {
    ensureBuiltCli();
    sim = await startSim({ size: { ...SMALL, campaigns } });
    const forward = forwardTo(sim.url);
    started = { sim, forward, stub: await startStubApiServer(forward) };
  }, 120_000);
  afterAll(async () => {
    await started?.stub.close();
    await sim?.close();
  });
  return {
    get sim() {
      return get().sim;
    },
    get stub() {
      return get().stub;
    },
    get forward() {
      return get().forward;
    },
  };
}
