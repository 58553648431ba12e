/**
 * `npm run bench -- remote [--days 30,365] [--docs 1000] [--measured 7]`: what committing each
 * publish to the remote lake costs as the history grows. For each history length, a fresh lake
 * gets one nightly publish a day (`docs` pushed documents received that day, and the day's
 * sync_runs record); the history is uploaded to moto's S3 by one push, then the last days are
 * committed after each publish (the commits' clock moved a day per publish, retention 7 days,
 * so snapshots expire and garbage is collected as on a real remote), and the last `measured`
 * days' publishes are measured: the remote commit's requests and bytes (sent and received), its
 * time (median and slowest) beside the local publish's, and the load average. The stream tables
 * are the hard case: their live files grow by a closed day's file a day, so only merging
 * manifests by size keeps the metadata a publish writes from growing with the history, and only
 * looking at the lake's links that moved keeps the commit's time from growing with it. Target:
 * requests, bytes and the commit's time at the longest history at most 1.25x the shortest's.
 * Needs moto_server on PATH.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { commitRemote, openStore, type RemoteConfig } from '../src/remote/index.js';
import { publishRunRecord } from '../src/warehouse/publish-run-record.js';
import { publishStream } from '../src/warehouse/publish-stream.js';
import { flag, flagValue, report, tempDir } from './bench-processes.js';
import { documents } from './history-publish.js';
import { median } from './history-questions.js';
import { benchSyncRun, datesAfter } from './lake-history.js';

const RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;

interface DayCost {
  requests: number;
  bytes: number;
  publishMs: number;
  commitMs: number;
  /** CPU time of this process during the commit (less sensitive to the machine's load than the wall time; moto's own not counted). */
  commitCpuMs: number;
  /** The machine's one-minute load average after the commit (a shared machine's figures vary with it). */
  load: number;
}

export async function runRemoteBench(args: string[]): Promise<Record<string, number | string | boolean>> {
  const lengths = (flagValue(args, 'days') ?? '30,365').split(',').map(Number);
  const docs = flag(args, 'docs', 1_000);
  const measured = flag(args, 'measured', 7);
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_REGION: 'us-east-1',
  });
  const moto = await startMoto();
  const figures: Record<string, number | string | boolean> = {};
  try {
    for (const days of lengths) {
      const costs = await history(moto.url, days, docs, measured);
      const pick = (key: keyof DayCost) => median(costs.map((c) => c[key]));
      Object.assign(figures, {
        [`requests_per_publish_${days}d`]: pick('requests'),
        [`bytes_per_publish_${days}d`]: Math.round(pick('bytes')),
        [`local_publish_ms_${days}d`]: Math.round(pick('publishMs')),
        [`remote_commit_ms_${days}d`]: Math.round(pick('commitMs')),
        [`remote_commit_cpu_ms_${days}d`]: Math.round(pick('commitCpuMs')),
        [`remote_commit_ms_max_${days}d`]: Math.round(Math.max(...costs.map((c) => c.commitMs))),
        [`load_average_${days}d`]: Number(pick('load').toFixed(2)),
      });
    }
    const [short, long] = [Math.min(...lengths), Math.max(...lengths)];
    const ratio = (key: string) => Number(figures[`${key}_${long}d`]) / Number(figures[`${key}_${short}d`]);
    figures.requests_ratio = Number(ratio('requests_per_publish').toFixed(2));
    figures.bytes_ratio = Number(ratio('bytes_per_publish').toFixed(2));
    figures.commit_time_ratio = Number(ratio('remote_commit_ms').toFixed(2));
    figures.commit_cpu_ratio = Number(ratio('remote_commit_cpu_ms').toFixed(2));
    figures.target_met =
      figures.requests_ratio <= 1.25 && figures.bytes_ratio <= 1.25 && figures.commit_time_ratio <= 1.25;
  } finally {
    await moto.stop();
  }
  report(
    `remote commits per nightly publish (${docs} documents a day, retention ${RETENTION_DAYS} days)`,
    figures,
  );
  return figures;
}

/** `days` nightly publishes, each committed; the costs of the last `measured`. */
async function history(motoUrl: string, days: number, docs: number, measured: number): Promise<DayCost[]> {
  const bucket = `bench-${days}-${Date.now().toString(36)}`;
  const remote: RemoteConfig = {
    url: `s3://${bucket}/lake`,
    bucket,
    prefix: 'lake/',
    endpoint: motoUrl,
    retentionMs: RETENTION_DAYS * DAY_MS,
  };
  const store = await openStore(remote);
  const { CreateBucketCommand } = await import('@aws-sdk/client-s3');
  await store.client.send(new CreateBucketCommand({ Bucket: bucket }));
  const dataDir = tempDir(`cw-bench-remote-${days}-`);
  const costs: DayCost[] = [];
  const dates = datesAfter('2025-12-31', days);
  // The history before the last days is published locally only, then uploaded by one push
  // (as `remote push` does for an existing history); the last days are committed nightly,
  // long enough before the measured ones for their snapshots to reach the retention's steady state.
  const firstCommitted = Math.max(0, days - measured - RETENTION_DAYS - 1);
  for (const [i, date] of dates.entries()) {
    const started = performance.now();
    await publishStream(dataDir, documents(`d${i}`, docs, date, i + 1));
    await publishRunRecord(dataDir, benchSyncRun(date, `bench-${date}`));
    const published = performance.now();
    const before = { ...store.stats };
    const cpu = process.cpuUsage();
    const now = Date.parse(`${date}T22:00:00Z`);
    if (i >= firstCommitted) await commitRemote(dataDir, remote, { store, now: () => now });
    if (i >= days - measured)
      costs.push({
        requests: store.stats.requests - before.requests,
        bytes: store.stats.bytesUp - before.bytesUp + store.stats.bytesDown - before.bytesDown,
        publishMs: published - started,
        commitMs: performance.now() - published,
        commitCpuMs: cpuMs(process.cpuUsage(cpu)),
        load: loadavg()[0] ?? 0,
      });
    if ((i + 1) % 50 === 0) process.stderr.write(`remote bench: ${days} days: ${i + 1} published\n`);
  }
  return costs;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

async function startMoto(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
  let child: ChildProcess;
  try {
    child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  } catch {
    throw new Error("remote bench: moto_server not found (pip install 'moto[server]')");
  }
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null)
      throw new Error("remote bench: moto_server did not start (pip install 'moto[server]')");
    if (
      await fetch(`${url}/moto-api/`).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      break;
    if (waited > 90_000) throw new Error('remote bench: moto_server did not answer within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
