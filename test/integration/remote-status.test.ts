/**
 * Watching the remote lake (docs/remote.md, "Watching the remote"), against moto on loopback:
 * - `status` (the built CLI) shows per table the remote's current snapshot, its commit time and
 *   whether it lags the local lake, from the state file and the lake's links: with the store's
 *   endpoint dead it answers at once and writes nothing;
 * - a sink's /metrics exports cw_remote_last_commit_timestamp_seconds and cw_remote_behind per
 *   table, and its watch raises remote_behind once when the loader's commit fails (a missing
 *   bucket) and resolves it when a commit lands; a lag with no failure seen is raised after
 *   REMOTE_BEHIND_AFTER_MS;
 * - a cron `sync` (the built CLI) whose commit fails raises remote_behind, the next one that
 *   commits resolves it.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteTableStatus } from '../../src/cli/remote-status.js';
import { latestCompletedRefresh } from '../../src/extract/snapshot-date.js';
import { Notifier } from '../../src/notify/notifier.js';
import type { NotifyMessage } from '../../src/notify/notify-event.js';
import { createPoster } from '../../src/notify/post-with-retry.js';
import { REMOTE_BEHIND_AFTER_MS } from '../../src/notify/remote-behind.js';
import { currentSnapshot } from '../../src/remote/iceberg-model.js';
import { openStore, readRemoteTable, TablePaths } from '../../src/remote/index.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { publishStream } from '../../src/warehouse/index.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { createBucket, MOTO_ENV, motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { lines, loopbackSync, run } from '../helpers/run-cli.js';
import { deliveryBody, insertHook, postDelivery, sampleDocument } from '../helpers/sink-fixtures.js';
import { SMALL, startSim, tempDataDir } from '../helpers/sync-harness.js';
import { refusingUrl, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-status: did not run: ${missing}`);

const CLI_TIMEOUT_MS = 240_000;
const STREAM = ['stream_deliveries', 'stream_documents'];

interface StatusJson {
  remotes: {
    url: string;
    configured: boolean;
    behind: boolean;
    tables: RemoteTableStatus[];
  }[];
}

/** Every file under `dir` with its size and mtime: what a read-only command must leave as it was. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out[path] = `${statSync(path).size} ${statSync(path).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

const webhookNotifier = (receiver: WebhookReceiver, dataDir: string, now?: () => Date) =>
  new Notifier({
    config: { webhooks: [{ url: `${receiver.url}/json`, format: 'json' }], staleAfterHours: 36 },
    dataDir,
    logger: pino({ level: 'silent' }),
    poster: createPoster({ minRetryMs: 10, attemptTimeoutMs: 2_000, totalMs: 5_000 }),
    ...(now ? { now } : {}),
  });

const remoteMessages = (receiver: WebhookReceiver, path?: string): NotifyMessage[] =>
  receiver.messages(path).filter((m) => m.event === 'remote_behind');

describe.skipIf(missing)('watching the remote lake', () => {
  const moto = withMoto();
  const closers: (() => Promise<unknown>)[] = [];
  let dead: string;

  beforeAll(async () => {
    ensureBuiltCli();
    dead = await refusingUrl();
  }, 300_000);
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function remoteSnapshot(prefix: string, table: string) {
    const store = await openStore(moto.remote(prefix));
    const found = await readRemoteTable(store, new TablePaths(moto.remote(prefix), table));
    const snapshot = currentSnapshot(found.metadata)!;
    return { version: found.version, id: snapshot['snapshot-id'], at: snapshot['timestamp-ms'] };
  }

  it(
    'status shows each table’s remote snapshot, its time and whether it lags, with no request and nothing written',
    async () => {
      const dataDir = tempDataDir();
      const url = 's3://lake/st';
      const at = (hour: number) =>
        `${new Date().toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00:00Z`;
      await publishStream(dataDir, documentsBatch('a', 3, at(8)));
      // The store's endpoint is a closed port: status must not need it.
      const offline = { ...MOTO_ENV, AWS_ENDPOINT_URL_S3: dead, AWS_MAX_ATTEMPTS: '1' };
      const status = async (env: NodeJS.ProcessEnv = {}) => {
        const before = filesOf(dataDir);
        const text = await run(['status', '--data-dir', dataDir], { ...offline, ...env });
        const json = await run(['status', '--data-dir', dataDir, '--json'], { ...offline, ...env });
        expect(text.code, text.stderr).toBe(0);
        expect(json.code, json.stderr).toBe(0);
        expect(text.stderr).toBe('');
        expect(filesOf(dataDir)).toEqual(before);
        return { text: lines(text.stdout), json: JSON.parse(json.stdout) as StatusJson };
      };

      // Configured, never committed: the stream tables lag, nothing else has files.
      const first = await status({ CW_REMOTE: url });
      expect(existsSync(join(dataDir, 'remote'))).toBe(false);
      expect(first.json.remotes).toHaveLength(1);
      const [never] = first.json.remotes;
      expect(never).toMatchObject({ url, configured: true, behind: true });
      expect(never!.tables.map((t) => t.table).sort()).toEqual(STREAM);
      for (const t of never!.tables) {
        expect(t).toMatchObject({
          version: 0,
          snapshotId: null,
          committedAt: null,
          behind: true,
          filesNotRemoved: 0,
        });
        expect(t.filesNotCommitted).toBeGreaterThan(0);
        expect(Date.parse(t.behindSince!)).toBeLessThanOrEqual(Date.now());
      }
      expect(first.text).toContain(
        `remote ${url}: 2 of 2 tables behind the local lake (the next publish or \`campaign-warehouse remote push\` commits them), as this data directory last committed it`,
      );
      expect(first.text.find((l) => /^ {2}stream_documents +not/.test(l))).toMatch(
        /^ {2}stream_documents +not committed yet {2}behind since \S+Z: 1 file\(s\) to upload$/,
      );

      const push = await run(['remote', 'push', '--data-dir', dataDir, '--remote', url], {
        ...MOTO_ENV,
        AWS_ENDPOINT_URL_S3: moto.url,
      });
      expect(push.code, push.stderr).toBe(0);

      // Committed: each table's snapshot and time are the store's, and nothing lags.
      const pushed = await status({ CW_REMOTE: url });
      const [current] = pushed.json.remotes;
      expect(current).toMatchObject({ url, configured: true, behind: false });
      for (const table of STREAM) {
        const remote = await remoteSnapshot('st', table);
        const shown = current!.tables.find((t) => t.table === table)!;
        expect(shown).toEqual({
          table,
          version: remote.version,
          snapshotId: remote.id,
          committedAt: new Date(remote.at).toISOString(),
          behind: false,
          filesNotCommitted: 0,
          filesNotRemoved: 0,
          behindSince: null,
        });
        expect(pushed.text).toContain(
          `  ${table.padEnd(30)} v${remote.version}  snapshot ${remote.id}  committed ${new Date(remote.at).toISOString()}  current`,
        );
      }
      expect(pushed.text).toContain(
        `remote ${url}: all 2 tables current, as this data directory last committed it`,
      );

      // A publish the remote has not committed (no remote configured for it): behind since it.
      const published = Date.now();
      await publishStream(dataDir, documentsBatch('b', 2, at(9)));
      const later = await status({ CW_REMOTE: url });
      for (const table of STREAM) {
        const shown = later.json.remotes[0]!.tables.find((t) => t.table === table)!;
        expect(shown.behind, table).toBe(true);
        expect(shown.snapshotId).toBe(current!.tables.find((t) => t.table === table)!.snapshotId);
        expect(Date.parse(shown.behindSince!)).toBeGreaterThanOrEqual(published - 1_000);
        expect(shown.filesNotCommitted + shown.filesNotRemoved).toBeGreaterThan(0);
      }
      // Not configured any more: still shown, from its state file.
      const unconfigured = await status();
      expect(unconfigured.json.remotes).toEqual([{ ...later.json.remotes[0], configured: false }]);
      expect(unconfigured.text).toContain(
        `remote ${url} (not configured now): 2 of 2 tables behind the local lake (the next publish or \`campaign-warehouse remote push\` commits them), as this data directory last committed it`,
      );
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'the sink exports each table’s last commit and lag, and raises remote_behind once per incident',
    async () => {
      const dataDir = tempDataDir();
      const hook = insertHook(dataDir);
      const receiver = await startWebhookReceiver();
      closers.push(() => receiver.close());
      let offsetMs = 0;
      const notifier = webhookNotifier(receiver, dataDir, () => new Date(Date.now() + offsetMs));
      closers.push(() => notifier.close(1_000));
      // A bucket that does not exist yet: the loader's commit fails at once (NoSuchBucket).
      const remote = { ...moto.remote('sk'), url: 's3://later/sk', bucket: 'later' };
      const sink: RunningSink = await startSink({
        dataDir,
        port: 0,
        publishIntervalMs: 600_000,
        logger: pino({ level: 'silent' }),
        remote,
        notify: { notifier, everyMs: 600_000 },
      });
      closers.push(() => sink.close());
      const scrape = async () => {
        const text = await (await fetch(`${sink.url}/metrics`)).text();
        const sample = (name: string, table: string) =>
          Number(new RegExp(`^${name}\\{table="${table}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
        return {
          behind: (table: string) => sample('cw_remote_behind', table),
          committed: (table: string) => sample('cw_remote_last_commit_timestamp_seconds', table),
        };
      };
      const deliver = async (id: string) => {
        expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument(id)]))).toBe(200);
        expect((await sink.publishNow()).publishes).toBe(1);
      };
      const tick = async () => {
        await sink.checkHealthNow();
        await notifier.settled();
      };

      await deliver('d1');
      await tick();
      await tick(); // the same incident: no second message
      let messages = remoteMessages(receiver);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ severity: 'warning', resolved: false });
      expect(messages[0]!.summary).toMatch(
        /^remote commit failed: remote s3:\/\/later at 127\.0\.0\.1:\d+: NoSuchBucket \(HTTP 404\) while committing /,
      );
      expect(messages[0]!.details).toMatchObject({
        remote: 's3://later/sk',
        tables_behind: expect.arrayContaining(STREAM),
      });
      let metrics = await scrape();
      for (const table of STREAM) {
        expect(metrics.behind(table), table).toBe(1);
        expect(metrics.committed(table), table).toBe(0);
      }

      // The bucket is made; the next publish's commit catches up and the incident ends.
      await createBucket(moto.url, 'later');
      await deliver('d2');
      await tick();
      messages = remoteMessages(receiver);
      expect(messages).toHaveLength(2);
      expect(messages[1]).toMatchObject({
        severity: 'info',
        resolved: true,
        summary: 'the remote s3://later/sk holds every local publish again',
      });
      metrics = await scrape();
      for (const table of STREAM) {
        const remoteTable = await (async () => {
          const store = await openStore(remote);
          return readRemoteTable(store, new TablePaths(remote, table));
        })();
        expect(metrics.behind(table), table).toBe(0);
        expect(metrics.committed(table), table).toBe(
          currentSnapshot(remoteTable.metadata)!['timestamp-ms'] / 1000,
        );
      }

      // A publish no commit follows (another process's, with no remote): a lag, not yet an
      // incident; once it has lasted REMOTE_BEHIND_AFTER_MS, one.
      await publishStream(dataDir, documentsBatch('x', 2, new Date().toISOString()));
      expect((await scrape()).behind('stream_documents')).toBe(1);
      await tick();
      expect(remoteMessages(receiver)).toHaveLength(2);
      offsetMs = REMOTE_BEHIND_AFTER_MS + 60_000;
      await tick();
      messages = remoteMessages(receiver);
      expect(messages).toHaveLength(3);
      expect(messages[2]!.summary).toMatch(
        /^the remote s3:\/\/later\/sk lags the local lake since \S+Z: 2 table\(s\) not committed \(stream_documents, stream_deliveries\)/,
      );
      await deliver('d3');
      await tick();
      expect(remoteMessages(receiver).slice(3)).toEqual([expect.objectContaining({ resolved: true })]);
    },
    CLI_TIMEOUT_MS,
  );

  describe('a cron sync', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startSim({ size: { ...SMALL, campaigns: 2 } });
    }, 120_000);
    afterAll(() => sim?.close());

    it(
      'raises remote_behind when its commit fails and resolves it when the next one lands',
      async () => {
        const dataDir = join(tempDataDir(), 'data');
        const receiver = await startWebhookReceiver();
        closers.push(() => receiver.close());
        const config = join(dataDir, '..', 'config.json');
        writeFileSync(
          config,
          JSON.stringify({
            maxRetries: 0,
            remote: { url: 's3://nightly/cw', endpoint: moto.url },
            notify: { webhooks: [{ url: `${receiver.url}/json`, format: 'json' }] },
          }),
        );
        const sync = () =>
          run(
            loopbackSync(
              sim.url,
              dataDir,
              '--config',
              config,
              '--snapshot-date',
              latestCompletedRefresh(new Date()),
            ),
            { ...MOTO_ENV, CW_API_KEY: 'sim-key' },
            { timeoutMs: CLI_TIMEOUT_MS },
          );
        const failed = await sync();
        expect(failed.code).toBe(1);
        expect(lines(failed.stderr).at(-1)).toMatch(
          /^campaign-warehouse: remote s3:\/\/nightly at 127\.0\.0\.1:\d+: NoSuchBucket/,
        );
        let messages = remoteMessages(receiver);
        expect(messages).toEqual([expect.objectContaining({ severity: 'warning', resolved: false })]);
        expect(messages[0]!.summary).toMatch(
          /^remote commit failed: remote s3:\/\/nightly at .*NoSuchBucket/,
        );
        expect(messages[0]!.details.tables_behind).toEqual(
          expect.arrayContaining(['post_metrics', 'sync_runs']),
        );

        await createBucket(moto.url, 'nightly');
        const landed = await sync();
        expect(landed.code, landed.stderr).toBe(0);
        messages = remoteMessages(receiver);
        expect(messages).toHaveLength(2);
        expect(messages[1]).toMatchObject({
          resolved: true,
          summary: 'the remote s3://nightly/cw holds every local publish again',
        });
      },
      CLI_TIMEOUT_MS,
    );
  });
});
