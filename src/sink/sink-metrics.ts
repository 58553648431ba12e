import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DataCheckResult } from '../warehouse/index.js';

/** Every way a request to a hook path can end; the label of sink_deliveries_total. */
export const DELIVERY_OUTCOMES = [
  'accepted',
  'bad_signature',
  'unknown_hook',
  'too_large',
  'not_json',
  'invalid_json',
  'too_deep',
  'no_documents',
  'inbox_unavailable',
  'method_not_allowed',
  'over_budget',
  'aborted',
] as const;

export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/**
 * What a connection timed out waiting for; the label of sink_connection_timeouts_total.
 * headers: its request head (the headers timeout); body: the rest of a request whose headers
 * had arrived (the request timeout).
 */
export const TIMEOUT_PHASES = ['headers', 'body'] as const;

export type TimeoutPhase = (typeof TIMEOUT_PHASES)[number];

/** Live figures the gauges read at scrape time. */
export interface SinkGaugeSources {
  /** Acknowledged deliveries not yet published. */
  backlog(): number;
  /** Seconds since the oldest unpublished acknowledgement (0 when none). */
  publishLagSeconds(): number;
  /** Deliveries the loader set aside (quarantined in the inbox: inbox-quarantine.ts). */
  quarantined(): number;
  /** Unix seconds of the last successful publish (0 before the first). */
  lastPublishSeconds(): number;
  /** The nightly syncs, from the state database's runs (any process's). */
  syncRuns(): { lastSuccessSeconds: number; failed: number; lastFailed: boolean };
  /** The data checks of the latest checked sync run (state database; none before the first). */
  dataChecks(): readonly DataCheckResult[];
  /** Body bytes claimed from the body budget by the requests in flight. */
  bodyBytesInFlight(): number;
  /** Connections open now. */
  openConnections(): number;
}

type Registers = Registry[];

/** The state database's figures as a scrape reads them (once per scrape: see SinkMetrics.scrape). */
interface StateReads {
  syncRuns(): ReturnType<SinkGaugeSources['syncRuns']>;
  dataChecks(): readonly DataCheckResult[];
}

/** A gauge set from `read()` at scrape time. */
function readGauge(registers: Registers, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers,
    collect() {
      this.set(read());
    },
  });
}

/** What each hook request ended as, and how long its inbox commit and its answer took. */
function deliveryMetrics(registers: Registers) {
  const deliveries = new Counter({
    name: 'sink_deliveries_total',
    help:
      'Requests to hook paths, by outcome (accepted = committed to the inbox and acknowledged; ' +
      'over_budget = 503 for the body budget; aborted = the sender went away or timed out before its last body byte).',
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  const documents = new Counter({
    name: 'sink_documents_accepted_total',
    help: 'Documents in acknowledged deliveries (duplicates included).',
    registers,
  });
  const commitSeconds = new Histogram({
    name: 'sink_inbox_commit_seconds',
    help: 'Duration of one inbox group commit (insert + fsync), during which acknowledgements wait.',
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers,
  });
  const commitSize = new Histogram({
    name: 'sink_inbox_commit_deliveries',
    help: 'Deliveries per inbox group commit.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
    registers,
  });
  const answerSeconds = new Histogram({
    name: 'sink_answer_seconds',
    help:
      'Time from a hook request reaching the sink to its answer (any status): reading the body, ' +
      'the checks and, for a 200, the durable commit. What the sender waits for, less the network.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  return { deliveries, documents, commitSeconds, commitSize, answerSeconds };
}

/** Loader publishes, and the connections and requests the sink refused or failed. */
function eventCounters(registers: Registers) {
  const publishes = new Counter({
    name: 'sink_publishes_total',
    help: 'Successful loader publishes.',
    registers,
  });
  const requestFailures = new Counter({
    name: 'sink_request_failures_total',
    help: "Requests answered 500 after an unexpected error (each logged as 'sink: request failed').",
    registers,
  });
  const timeouts = new Counter({
    name: 'sink_connection_timeouts_total',
    help:
      'Connections closed (408) because a request was not received in time, by phase: headers ' +
      '(the headers timeout) or body (the request timeout, after its headers had arrived).',
    labelNames: ['phase'],
    registers,
  });
  for (const phase of TIMEOUT_PHASES) timeouts.inc({ phase }, 0);
  const connectionsRefused = new Counter({
    name: 'sink_connections_refused_total',
    help: 'Connections closed as soon as accepted because the most connections allowed were open.',
    registers,
  });
  return { publishes, requestFailures, timeouts, connectionsRefused };
}

/** What the guards hold now: body bytes against the body budget, open connections. */
function guardGauges(registers: Registers, sources: SinkGaugeSources): void {
  readGauge(
    registers,
    'sink_body_bytes_in_flight',
    'Request-body bytes held now (claimed from the body budget); over-budget requests get 503.',
    () => sources.bodyBytesInFlight(),
  );
  readGauge(
    registers,
    'sink_open_connections',
    'Client connections open now (idle keep-alive ones included).',
    () => sources.openConnections(),
  );
}

/** The loader's failures and how far it is behind the acknowledgements; returns the failure counter. */
function loaderMetrics(registers: Registers, sources: SinkGaugeSources): Counter {
  const publishFailures = new Counter({
    name: 'sink_publish_failures_total',
    help: 'Loader publishes that failed (retried on the next tick; the inbox keeps the rows).',
    registers,
  });
  readGauge(
    registers,
    'sink_inbox_backlog',
    'Acknowledged deliveries waiting in the inbox to be published.',
    () => sources.backlog(),
  );
  readGauge(
    registers,
    'sink_publish_lag_seconds',
    'Age of the oldest acknowledged delivery not yet published (0 when none).',
    () => sources.publishLagSeconds(),
  );
  readGauge(
    registers,
    'sink_quarantined_deliveries',
    'Acknowledged deliveries set aside because they alone cannot be published (kept in the inbox: ' +
      '`campaign-warehouse sink quarantine list`); the others publish. Alert when above 0.',
    () => sources.quarantined(),
  );
  return publishFailures;
}

/** The nightly syncs' health, from the state database's runs. */
function syncGauges(registers: Registers, state: StateReads): void {
  readGauge(
    registers,
    'cw_sync_last_success_timestamp_seconds',
    'Unix time the last successful sync finished (0 if none): alert when older than a day.',
    () => state.syncRuns().lastSuccessSeconds,
  );
  readGauge(
    registers,
    'cw_sync_failed_runs',
    'Sync runs whose last attempt failed (a resumed run that then succeeds no longer counts).',
    () => state.syncRuns().failed,
  );
  readGauge(registers, 'cw_sync_last_run_failed', '1 when the most recent sync run failed, else 0.', () =>
    state.syncRuns().lastFailed ? 1 : 0,
  );
}

/** What the data checks of the latest checked sync run found, per check and segment, and on which campaigns. */
function dataCheckGauges(registers: Registers, state: StateReads): void {
  new Gauge({
    name: 'cw_data_check_failing',
    help: 'Disagreements each data check found in the latest sync run, per segment (0: passed or skipped).',
    labelNames: ['check', 'segment'],
    registers,
    collect() {
      this.reset();
      for (const r of state.dataChecks()) this.set({ check: r.check, segment: r.segment }, r.failing);
    },
  });
  new Gauge({
    name: 'cw_data_check_failing_campaign',
    help: '1 for each campaign a data check failed on in the latest sync run (the first 20 per check).',
    labelNames: ['check', 'segment', 'campaign_id'],
    registers,
    collect() {
      this.reset();
      for (const r of state.dataChecks())
        for (const campaign_id of r.campaigns)
          this.set({ check: r.check, segment: r.segment, campaign_id }, 1);
    },
  });
}

/**
 * The sink's Prometheus metrics, in a Registry of its own (not prom-client's global one), so
 * that two sinks in one process (tests, `serve`) never collide.
 */
export class SinkMetrics {
  readonly registry = new Registry();
  readonly #deliveries: ReturnType<typeof deliveryMetrics>;
  readonly #events: ReturnType<typeof eventCounters>;
  readonly #publishFailures: Counter;
  readonly #outcomes = new Map<DeliveryOutcome, number>();
  readonly #sources: SinkGaugeSources;
  /** The state database as read once for the scrape under way (see scrape()). */
  #scrapeState:
    | { syncRuns: ReturnType<SinkGaugeSources['syncRuns']>; dataChecks: readonly DataCheckResult[] }
    | undefined;

  /** Registers every metric; the groups come in the order /metrics has always listed them. */
  constructor(sources: SinkGaugeSources) {
    this.#sources = sources;
    const state: StateReads = {
      syncRuns: () => this.#scrapeState?.syncRuns ?? sources.syncRuns(),
      dataChecks: () => this.#scrapeState?.dataChecks ?? sources.dataChecks(),
    };
    const registers = [this.registry];
    // Process metrics, event-loop lag above all: a loader holding the loop delays acknowledgements.
    collectDefaultMetrics({ register: this.registry });
    this.#deliveries = deliveryMetrics(registers);
    this.#events = eventCounters(registers);
    guardGauges(registers, sources);
    this.#publishFailures = loaderMetrics(registers, sources);
    syncGauges(registers, state);
    dataCheckGauges(registers, state);
    readGauge(
      registers,
      'sink_last_publish_timestamp_seconds',
      'Unix time of the last successful publish (0 before the first).',
      () => sources.lastPublishSeconds(),
    );
  }

  /**
   * The Prometheus text of one scrape. The state database is read once for the gauges that
   * show it (three cw_sync_* and two cw_data_check_*; their collect() would otherwise each query it).
   */
  async scrape(): Promise<string> {
    this.#scrapeState = { syncRuns: this.#sources.syncRuns(), dataChecks: this.#sources.dataChecks() };
    try {
      return await this.registry.metrics();
    } finally {
      this.#scrapeState = undefined;
    }
  }

  /** A request to a hook path answered after `seconds`; `documents` of an accepted delivery. */
  delivery(outcome: DeliveryOutcome, seconds: number, documents = 0): void {
    this.#deliveries.deliveries.inc({ outcome });
    this.#deliveries.answerSeconds.observe(seconds);
    this.#outcomes.set(outcome, (this.#outcomes.get(outcome) ?? 0) + 1);
    if (documents > 0) this.#deliveries.documents.inc(documents);
  }

  committed(deliveries: number, durationMs: number): void {
    this.#deliveries.commitSeconds.observe(durationMs / 1000);
    this.#deliveries.commitSize.observe(deliveries);
  }

  published(): void {
    this.#events.publishes.inc();
  }

  requestFailed(): void {
    this.#events.requestFailures.inc();
  }

  timedOut(phase: TimeoutPhase): void {
    this.#events.timeouts.inc({ phase });
  }

  connectionRefused(): void {
    this.#events.connectionsRefused.inc();
  }

  publishFailed(): void {
    this.#publishFailures.inc();
  }

  /** Requests per outcome since start (for stats() and tests). */
  outcomes(): Record<DeliveryOutcome, number> {
    return Object.fromEntries(DELIVERY_OUTCOMES.map((o) => [o, this.#outcomes.get(o) ?? 0])) as Record<
      DeliveryOutcome,
      number
    >;
  }
}
