/**
 * `npm start`: the whole job on the embedded simulator, no account needed. Fourteen nightly
 * syncs of simulated days into <data-dir> (the simulator's live history, with one change
 * injected on the last night, which the history checks flag), analyst questions read back
 * from the published file, then hooks pushing signed documents into an in-process sink (a
 * duplicate collapses, a forged push is refused), published and counted per search type;
 * last, the HTML report of it all.
 */
import { request } from 'undici';
import type { SyncConfig } from '../config/sync-config.js';
import { DEFAULT_SCHEDULE } from '../config/sync-config.js';
import { describeHistory, describeOutcome } from '../extract/check-before-publish.js';
import { formatSummary } from '../extract/format-summary.js';
import { createProgressReporter } from '../extract/progress-reporter.js';
import { runSync } from '../extract/run-sync.js';
import { insideRefreshWindow, latestCompletedRefresh } from '../extract/snapshot-date.js';
import { DEFAULT_DAYS, DEFAULT_SEGMENT, defaultReportPath } from '../report/report-options.js';
import { writeReport } from '../report/write-report.js';
import { HookManager, type HookView } from '../service/hook-manager.js';
import { signBody } from '../simulator/hooks/sign-body.js';
import type { SimHistory } from '../simulator/model/history.js';
import { SimModel } from '../simulator/model/sim-model.js';
import type { SimSize } from '../simulator/model/sim-size.js';
import { startSimulator } from '../simulator/start-simulator.js';
import { startSink } from '../sink/start-sink.js';
import { openStateDb } from '../state/state-db.js';
import type { Logger } from '../util/logger.js';
import { formatResult, withReadOnly } from '../warehouse/index.js';

const SIM_KEY = 'sim-key';
/** Nights the demo syncs: enough history for the anomaly band (7 daily changes) and lines in the charts. */
export const DEMO_NIGHTS = 14;
const DAY_MS = 86_400_000;
const DEMO_SEED = 7;
const DEMO_SIZE: SimSize = {
  workspaces: 2,
  tagsPerWorkspace: 4,
  campaigns: 12,
  postsPerCampaign: 60,
  influencersPerCampaign: 15,
};
const DEFAULT_REPORT = { campaigns: [], segment: DEFAULT_SEGMENT, days: DEFAULT_DAYS } as const;
const say = (text: string) => process.stdout.write(`${text}\n`);

type DemoSimulator = Awaited<ReturnType<typeof startSimulator>>;

/** The demo's steps: the nightly syncs, analyst questions, hooks pushing to a sink, the report. */
export async function runDemo(dataDir: string, logger: Logger): Promise<void> {
  const { firstNight, lastNight } = demoNights(new Date());
  const history = demoHistory(lastNight, firstNight);
  const sim = await startSimulator({
    seed: DEMO_SEED,
    startTime: firstNight,
    size: DEMO_SIZE,
    history,
    rateLimit: { rps: 400, burst: 40 },
    hooks: { deliveriesPerSecond: 12, documentsPerDelivery: 3, duplicateRate: 0.25 },
  });
  try {
    const change = history.changes[0]!;
    say(
      `== 1. ${DEMO_NIGHTS} nightly syncs of simulated days from the simulator at ${sim.url} into ${dataDir}
` +
        `   (figures of live campaigns; injected on the last night: a ${change.kind} of campaign ${change.campaigns.join(', ')})`,
    );
    await syncNights(sim, demoSyncConfig(sim.url, dataDir), { firstNight, lastNight }, logger);
    say('\n== 2. analyst questions, read back from the published warehouse.duckdb');
    await askAnalystQuestions(dataDir);
    say('\n== 3. hooks push signed documents to an in-process sink');
    const sink = await startSink({ dataDir, port: 0, publishIntervalMs: 1_000, logger });
    try {
      await pushDemo(sim, sink, dataDir);
    } finally {
      await sink.close();
    }
    say('\n== 4. the report: charts and their tables in one self-contained HTML file');
    const report = await writeReport({ ...DEFAULT_REPORT, dataDir, out: defaultReportPath(dataDir) });
    say(`wrote ${report.path} (open it in a browser; it needs no network)`);
    say(`\ndone: the demo's files are in ${dataDir} (a sync of your own writes into ./data, or --data-dir).`);
    say(`Try: npx campaign-warehouse status --data-dir ${dataDir}`);
    say(`     npx campaign-warehouse query --data-dir ${dataDir} "select * from network_breakdown limit 10"`);
  } finally {
    await sim.close();
  }
}

/**
 * The simulated clock's nights: the last one now, unless now is inside the API's refresh
 * window: then at 22:00 UTC the same day, so the demo never has to refuse or force.
 */
function demoNights(now: Date): { firstNight: Date; lastNight: Date } {
  const lastNight = insideRefreshWindow(now) ? new Date(`${now.toISOString().slice(0, 10)}T22:00:00Z`) : now;
  return { firstNight: new Date(lastNight.getTime() - (DEMO_NIGHTS - 1) * DAY_MS), lastNight };
}

function demoSyncConfig(baseUrl: string, dataDir: string): SyncConfig {
  return {
    baseUrl,
    apiKey: SIM_KEY,
    dataDir,
    force: false,
    rps: 300,
    concurrency: 4,
    pageSize: 100,
    maxRetries: 5,
    timeoutMs: 30_000,
    campaigns: [],
    segments: [{ name: 'instagram', sources: ['instagram', 'instagram_stories'] }],
    schedule: DEFAULT_SCHEDULE,
  };
}

/** The earlier nights one line each (the simulated clock moves a day between them), then the last with its progress and summary. */
async function syncNights(
  sim: DemoSimulator,
  config: SyncConfig,
  nights: { firstNight: Date; lastNight: Date },
  logger: Logger,
): Promise<void> {
  for (let night = 0; night < DEMO_NIGHTS - 1; night++) {
    sim.clock.set(new Date(nights.firstNight.getTime() + night * DAY_MS));
    // The lake's upkeep waits for the last night: nothing is due seconds apart (see lakeUpkeep).
    const s = await runSync(config, {
      logger,
      now: () => sim.clock.now(),
      lakeUpkeep: false,
      demoSource: true,
    });
    const { checks } = s;
    say(
      `night ${s.snapshotDate}: ${s.rowsWritten} rows in ${(s.durationMs / 1000).toFixed(1)} s; ` +
        `data checks ${checks.error ?? describeOutcome(checks.ran, checks.failed)}; ` +
        `history checks ${describeHistory(s.snapshotDate, checks.history.results)}`,
    );
  }
  sim.clock.set(nights.lastNight);
  say(`\nlast night, simulated time ${sim.clock.now().toISOString()}:`);
  const progress = createProgressReporter(logger, Boolean(process.stderr.isTTY));
  const summary = await runSync(config, {
    logger,
    now: () => sim.clock.now(),
    onProgress: (p) => progress.update(p),
    onApiEvent: (e) => progress.apiEvent(e),
    demoSource: true,
  });
  progress.stop();
  process.stdout.write(formatSummary(summary));
}

async function askAnalystQuestions(dataDir: string): Promise<void> {
  await ask(dataDir, [
    [
      'Top campaigns by engagement (latest snapshot, all networks)',
      `select c.name as campaign, m.num_posts, m.num_influencers, m.total_engagement, round(m.total_emv, 2) as total_emv
         from latest_campaign_metrics m join campaigns c using (campaign_id)
         where m.segment = 'all' order by m.total_engagement desc limit 5`,
    ],
    [
      'Per-network breakdown (latest snapshot; reach is per network and never summed)',
      `select network, count(*) as campaigns, sum(num_posts) as posts, sum(engagement) as engagement,
                round(sum(emv), 2) as emv, round(avg(engagement_rate), 4) as avg_engagement_rate
         from latest_campaign_network_metrics where segment = 'all' group by network order by engagement desc`,
    ],
    [
      'Segment "instagram" (fetched with ?sources=instagram,instagram_stories) against all networks',
      `select segment, sum(num_posts) as posts, sum(total_engagement) as engagement
         from latest_campaign_metrics group by segment order by segment`,
    ],
  ]);
}

/**
 * The simulator's live history, and one change on the last night: a tenfold spike of the
 * campaign with the most posts on the first night (its band of daily changes is learned by
 * then), which campaign_engagement_anomaly flags.
 */
function demoHistory(lastNight: Date, firstNight: Date): SimHistory {
  const firstDay = latestCompletedRefresh(firstNight);
  const probe = new SimModel(DEMO_SEED, DEMO_SIZE, { live: true, changes: [] });
  const posts = (id: string) => probe.postIndexes(id, {}, firstDay).length;
  const campaign = probe.catalog.campaigns.reduce((a, b) => (posts(b.id) > posts(a.id) ? b : a));
  return {
    live: true,
    changes: [{ day: latestCompletedRefresh(lastNight), kind: 'spike', campaigns: [campaign.id] }],
  };
}

/** Hooks created for three searches, a duplicate and a forged push, the hooks deleted, what the warehouse kept. */
async function pushDemo(
  sim: DemoSimulator,
  sink: Awaited<ReturnType<typeof startSink>>,
  dataDir: string,
): Promise<void> {
  const { createApiClient } = await import('../api/create-api-client.js');
  const client = createApiClient({ baseUrl: sim.url, apiKey: SIM_KEY, rps: 20, concurrency: 2 });
  const state = openStateDb(dataDir);
  const manager = new HookManager(client, state);
  try {
    const created = [];
    for (const searchId of [101, 103, 105]) {
      const hook = await manager.create({ searchId, sinkUrl: sink.url });
      created.push(hook);
      say(`created hook ${hook.hook_id} for search ${searchId} (${hook.search_type}) -> ${hook.target_url}`);
    }
    await waitFor(() => Number(sim.hooks.stats().acknowledged ?? 0) >= 12, 20_000);
    const first = created[0]!;
    const secret = state.sqlite
      .prepare('select secret from hooks where hook_id = ?')
      .pluck()
      .get(first.hook_id) as string;
    await postDuplicateAndForged(first, secret);
    for (const hook of created) await manager.delete(hook.hook_id);
    say(
      `deleted the hooks; simulator deliveries: ${JSON.stringify(pick(sim.hooks.stats(), ['attempted', 'acknowledged', 'duplicatesSent']))}`,
    );
    await sink.publishNow(); // whatever the loader has not published by itself yet
    const { publishes, backlog } = sink.stats();
    say(`the loader published the inbox into the warehouse: ${publishes} publish(es), backlog ${backlog}`);
    await askWhatWasKept(dataDir);
  } finally {
    state.close();
    await client.close();
  }
}

/** A duplicate (the same signed body twice: the API delivers at least once), then a forged one. */
async function postDuplicateAndForged(hook: HookView, secret: string): Promise<void> {
  const body = JSON.stringify({
    request: { hook_id: hook.hook_id, search_id: hook.search_id, company_id: 'demo' },
    documents: [
      {
        id: 'demo-duplicate-1',
        published_date: new Date().toISOString(),
        indexed_date: new Date().toISOString(),
        url: 'https://news.example/demo',
        source: { id: 'demo', name: 'Demo source', information_type: 'social' },
        content: { title: 'Delivered twice, stored once', opening_text: '' },
        language: 'en',
        country: 'US',
      },
    ],
  });
  const signature = signBody(secret, body);
  const post = async (headers: Record<string, string>) =>
    (
      await request(hook.target_url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      })
    ).statusCode;
  const dup1 = await post({ 'x-hub-signature': signature.sha1 });
  const dup2 = await post({ 'x-hub-signature': signature.sha1 });
  say(`posted one document twice: answers ${dup1} and ${dup2}`);
  const forged = await post({ 'x-hub-signature': signBody('not-the-hook-secret-at-all', body).sha1 });
  say(`posted a forged delivery (wrong secret): answer ${forged} (refused, nothing stored)`);
}

async function askWhatWasKept(dataDir: string): Promise<void> {
  await ask(dataDir, [
    [
      'Documents per search type (each document once, however often it was delivered)',
      `select search_type, count(*) as documents, count(distinct hook_id) as hooks, min(received_at) as first_received
         from stream_documents group by search_type order by search_type`,
    ],
    [
      'Deliveries acknowledged vs documents kept',
      `select (select count(*) from stream_deliveries) as deliveries,
                (select sum(documents) from stream_deliveries) as documents_delivered,
                (select count(*) from stream_documents) as documents_kept,
                (select count(*) from stream_documents where document_id = 'demo-duplicate-1') as demo_duplicate_rows`,
    ],
  ]);
}

/** Each question with its answer, all read in one read-only session of the published warehouse. */
async function ask(
  dataDir: string,
  questions: readonly (readonly [question: string, sql: string])[],
): Promise<void> {
  await withReadOnly(dataDir, async (query) => {
    for (const [question, sql] of questions) {
      say(`\n${question}:`);
      process.stdout.write(formatResult(await query(sql), 'table', { color: false }));
    }
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

function pick(record: Record<string, number>, keys: readonly string[]): Record<string, number | undefined> {
  return Object.fromEntries(keys.map((k) => [k, record[k]]));
}
