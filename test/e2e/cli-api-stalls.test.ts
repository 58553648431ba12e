/**
 * Replies that hung a sync or said too little (issue 38), through the built CLI: the simulator
 * serves the sync behind a stub that puts one fault on the posts of one campaign. A Retry-After
 * ten years away is capped at 15 minutes and logged as the wait starts, and SIGTERM during it
 * stops the sync at once (exit 130), resumed by the next run; a response dripping one byte at
 * a time is cut at its deadline, retried, then named in one line, and SIGTERM during the read
 * stops the sync; an empty 200 body is retried and named "empty body". Each SIGTERM case only
 * asserts that the sync ended with 130 well within the wait or read it cut short.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lines, run, spawnCli } from '../helpers/run-cli.js';
import { CAMPAIGN_POSTS, simBehindStub } from '../helpers/sim-behind-stub.js';
import type { StubReply, StubRequest, StubScript } from '../helpers/stub-api-server.js';
import { tempDataDir } from '../helpers/sync-harness.js';

const KEY = { CW_API_KEY: 'sim-key', CW_LOG_LEVEL: 'info' };
/** A fraction of the 15-minute wait and of the drip a SIGTERM cuts short: ending later is a hang. */
const STOP_BOUND_MS = 60_000;
const INTERRUPTED = 'campaign-warehouse: sync interrupted: run it again to resume';

const api = simBehindStub(3);

/** The `nth` campaign (from 0) whose posts the sync asks for gets `fault`; the rest pass through. */
function faultPostsOf(nth: number, fault: (req: StubRequest) => StubReply | Promise<StubReply>) {
  const campaigns: string[] = [];
  const faulted: StubRequest[] = [];
  const script: StubScript = (req) => {
    const campaign = CAMPAIGN_POSTS.exec(req.path)?.[1];
    if (campaign !== undefined && !campaigns.includes(campaign)) campaigns.push(campaign);
    if (campaign === undefined || campaign !== campaigns[nth]) return api.forward(req);
    faulted.push(req);
    return fault(req);
  };
  api.stub.script(script);
  return faulted;
}

/** `sync` through the stub, one unit at a time (a unit is done before the next starts), with a config file. */
function syncArgs(dataDir: string, config: Record<string, unknown> = {}): string[] {
  const file = join(dataDir, 'cw.json');
  writeFileSync(file, JSON.stringify(config));
  const args = ['sync', '--base-url', api.stub.url, '--data-dir', dataDir, '--config', file];
  return [...args, '--snapshot-date', '2026-11-20', '--force', '--concurrency', '1', '--json'];
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The lines on stderr that are not JSON log lines: what a user reads as the outcome. */
const messages = (stderr: string) => lines(stderr).filter((line) => !line.startsWith('{'));

describe('sync against an API that stalls or sends nothing', () => {
  it('a Retry-After ten years away: capped at 15 min and logged as it starts; SIGTERM stops the wait (130); the next run resumes', async () => {
    const dataDir = tempDataDir();
    const tenYears = new Date(Date.now() + 10 * 365 * 86_400_000).toISOString();
    faultPostsOf(1, () => ({
      status: 429,
      headers: { 'Retry-After': tenYears },
      body: { message: 'Service Overloaded', errors: {} },
    }));
    const args = syncArgs(dataDir);
    const sync = spawnCli(args, KEY);
    const line = await sync.stderrLine(/waiting .* as the API asked/);
    const logged = JSON.parse(line) as { msg: string; endpoint: string; waitMs: number; capped: boolean };
    expect(logged).toMatchObject({ waitMs: 15 * 60_000, capped: true });
    expect(logged.msg).toMatch(/^waiting 15 min as the API asked \(.*capped at the 15 min maximum\)/);
    expect(logged.endpoint).toMatch(/^GET \/v3\/influencers\/campaigns\/[^/]+\/posts$/);

    sync.process.kill('SIGTERM');
    const code = await within(sync.exited, STOP_BOUND_MS, 'the sync still waits after SIGTERM');
    expect(code).toBe(130);
    expect(messages(sync.stderr())).toEqual([INTERRUPTED]);

    api.stub.script(api.forward);
    const rerun = await run(args, KEY);
    expect(messages(rerun.stderr)).toEqual([]);
    expect(rerun.code).toBe(0);
    const summary = JSON.parse(lines(rerun.stdout).at(-1)!) as { resumed: boolean; unitsSkipped: number };
    expect(summary.resumed).toBe(true);
    expect(summary.unitsSkipped).toBeGreaterThanOrEqual(1);
    const count = await run([
      'query',
      '--data-dir',
      dataDir,
      '--format',
      'csv',
      'select count(*) as n from campaign_metrics',
    ]);
    expect(lines(count.stdout)).toEqual(['n', '3']);
  });

  it('a body dripping one byte at a time: cut at the response deadline, retried, then one line naming the endpoint and the deadline', async () => {
    const dataDir = tempDataDir();
    const faulted = faultPostsOf(0, async (req) => ({
      ...(await api.forward(req)),
      fault: 'drip',
      dripMs: 100,
    }));
    const sync = await run(syncArgs(dataDir, { responseDeadlineMs: 1_000, maxRetries: 1 }), KEY, {
      timeoutMs: 120_000,
    });
    expect(sync.code).toBe(1);
    expect(messages(sync.stderr)).toHaveLength(1);
    expect(messages(sync.stderr)[0]).toMatch(
      /^campaign-warehouse: giving up after 2 attempts on GET \/v3\/influencers\/campaigns\/[^/]+\/posts \(X-Request-Id req-\d+\): 200 OK body read failed \(response deadline of 1 s passed before the body was complete\)$/,
    );
    expect(faulted).toHaveLength(2);
  });

  it('SIGTERM while a response drips in: the read is torn down and the sync stops (130)', async () => {
    const dataDir = tempDataDir();
    let dripping: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      dripping = resolve;
    });
    // Hours of dripping, within an hour's deadline: only the signal can end this read.
    faultPostsOf(0, () => ({ body: ' '.repeat(100_000), fault: 'drip', dripMs: 100, onDrip: dripping }));
    const sync = spawnCli(syncArgs(dataDir, { responseDeadlineMs: 3_600_000 }), KEY);
    await Promise.race([started, sync.exited.then((code) => Promise.reject(new Error(`exited ${code}`)))]);
    sync.process.kill('SIGTERM');
    const code = await within(sync.exited, STOP_BOUND_MS, 'the sync still reads after SIGTERM');
    expect(code).toBe(130);
    expect(messages(sync.stderr())).toEqual([INTERRUPTED]);
  });

  it('an empty 200 body: retried as a truncated one, then one line saying "empty body"', async () => {
    const dataDir = tempDataDir();
    const faulted = faultPostsOf(0, () => ({ body: '' }));
    const sync = await run(syncArgs(dataDir, { maxRetries: 2 }), KEY);
    expect(sync.code).toBe(1);
    expect(messages(sync.stderr)).toHaveLength(1);
    expect(messages(sync.stderr)[0]).toMatch(
      /^campaign-warehouse: giving up after 3 attempts on GET \/v3\/influencers\/campaigns\/[^/]+\/posts \(X-Request-Id req-\d+\): 200 OK with an empty body$/,
    );
    expect(faulted).toHaveLength(3);
  });
});
