/** The history benchmark's questions, asked through the catalog as an analyst asks them, and their timing. */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from '../src/warehouse/duckdb/warehouse-paths.js';

/**
 * A question and the targets it is held to at the long history:
 * - every question without `wholeHistory`: at most 1.25x its time at 180 days, or under 25 ms;
 * - `under100`: a README example or an analyst view, under 100 ms;
 * - `wholeHistory`: it reads every day of the tables it names, so its time grows with the
 *   history by nature: at most 2x the same question on native DuckDB tables instead.
 */
export interface Question {
  readonly sql: string;
  readonly under100?: boolean;
  /** Reads the whole history: held to native tables, not to its time at 180 days. */
  readonly wholeHistory?: boolean;
  /** Fact tables read over the whole history (compared on native only if all were copied). */
  readonly tables?: readonly string[];
  /** Also held to its time at 180 days (a whole-history question small enough to be flat). */
  readonly flat?: boolean;
}

/** The campaign whose history the whole-history questions follow. */
const CAMPAIGN = sqlString('c7');

/**
 * The questions (its table, in its order) and the history benchmark's earlier ones,
 * about `latest`, the lake's latest snapshot date.
 */
export function historyQuestions(latest: string): Record<string, Question> {
  const d = sqlString(latest);
  return {
    one_day: { sql: `select count(*) from post_metrics where snapshot_date = ${d}` },
    stats_wide: {
      sql: `select * from campaign_network_stats_wide where snapshot_date = ${d}`,
      under100: true,
    },
    sales_vs_budget: {
      sql: `select campaign_id, currency, sum(sales_amount), sum(budget) from sales_vs_budget where snapshot_date = ${d} group by all`,
      under100: true,
    },
    trend_30d: {
      sql: `select campaign_id, snapshot_date, sum(engagement) from post_metrics where segment = 'all' and snapshot_date > ${d}::date - 30 group by all order by all`,
    },
    // The README's former example: the subquery reads every date of campaign_network_metrics.
    network_breakdown: {
      sql: 'select * from network_breakdown where snapshot_date = (select max(snapshot_date) from campaign_network_metrics)',
      under100: true,
      wholeHistory: true,
      flat: true,
      tables: ['campaign_network_metrics', 'campaign_metrics'],
    },
    latest_network_breakdown: {
      sql: "select * from latest_network_breakdown where segment = 'all'",
      under100: true,
    },
    campaign_all_days: {
      sql: `select snapshot_date, total_engagement from campaign_metrics where campaign_id = ${CAMPAIGN} and segment = 'all' order by 1`,
      wholeHistory: true,
      flat: true,
      tables: ['campaign_metrics'],
    },
    latest_posts: {
      sql: "select * from latest_post_metrics where segment = 'all' order by engagement desc limit 100",
      under100: true,
    },
    top_campaigns: {
      sql: "select c.name, m.total_engagement from latest_campaign_metrics m join campaigns c using (campaign_id) where segment = 'all' order by 2 desc limit 10",
      under100: true,
    },
    leaderboard: {
      sql: 'select * from influencer_leaderboard where engagement_rank <= 10 order by campaign_id, engagement_rank',
      under100: true,
    },
    networks_all_days: {
      sql: "select network, sum(engagement), sum(emv) from campaign_network_metrics where segment = 'all' group by 1 order by 1",
      wholeHistory: true,
      tables: ['campaign_network_metrics'],
    },
    influencers_all_days: {
      sql: "select influencer_id, sum(engagement) from influencer_campaign_metrics where segment = 'all' group by 1 order by 2 desc, 1 limit 10",
      wholeHistory: true,
      tables: ['influencer_campaign_metrics'],
    },
    posts_all_days: {
      sql: `select snapshot_date, sum(engagement) from post_metrics where campaign_id = ${CAMPAIGN} and segment = 'all' group by 1 order by 1`,
      wholeHistory: true,
      tables: ['post_metrics'],
    },
  };
}

/** Runs per question and target: one to warm the OS cache, then the median of the rest. */
export const QUESTION_RUNS = 11;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A catalog to ask questions of, and its questions by name. */
export interface QuestionTarget {
  readonly path: string;
  readonly sqls: Record<string, string>;
}

/**
 * A question's answer, as rows in any order, fractions to 10 significant digits (a sum of
 * doubles depends on the order DuckDB's threads add them): equal digests, equal answers.
 */
function answerDigest(rows: unknown[]): string {
  const round = (_: string, v: unknown) =>
    typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(10)) : v;
  const lines = rows.map((row) => JSON.stringify(row, round)).sort();
  return `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
}

/** Per target, each question's median ms and its answer's digest (history-questions' answerDigest). */
export interface QuestionResults {
  readonly ms: Record<string, number>;
  readonly answers: Record<string, string>;
}

/**
 * Median ms of each target's questions, each DuckDB file opened read-only (one connection
 * each, held through the run), and their answers. Question by question, and run by run every
 * target in turn, so that a burst of load on a shared machine (the writeback of a clone, say)
 * weighs on the targets alike: asked five times in a row per target, one question's 180-day
 * median once came out three times its 1,095-day one.
 */
export async function timeQuestions(targets: readonly QuestionTarget[]): Promise<QuestionResults[]> {
  const opened: { instance: DuckDBInstance; connection: DuckDBConnection }[] = [];
  try {
    for (const { path } of targets) {
      const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
      opened.push({ instance, connection: await instance.connect() });
    }
    const out = targets.map((): QuestionResults => ({ ms: {}, answers: {} }));
    const names = [...new Set(targets.flatMap((t) => Object.keys(t.sqls)))];
    for (const name of names) {
      const asking = targets.flatMap((target, i) => {
        const sql = target.sqls[name];
        return sql === undefined ? [] : [{ i, sql, times: [] as number[] }];
      });
      for (let run = 0; run < QUESTION_RUNS; run += 1)
        for (const { i, sql, times } of asking) {
          const started = performance.now();
          const reader = await opened[i]!.connection.runAndReadAll(sql);
          if (run > 0) times.push(performance.now() - started);
          else out[i]!.answers[name] = answerDigest(reader.getRowsJson());
        }
      for (const { i, times } of asking) out[i]!.ms[name] = median(times);
    }
    return out;
  } finally {
    for (const { instance, connection } of opened) {
      connection.closeSync();
      instance.closeSync();
    }
  }
}

/**
 * timeQuestions in a child process that loads DuckDB with DuckDB's own allocator setting, as
 * an analyst's client (the DuckDB CLI, a BI tool) does. The benchmark process runs with the
 * CLI's sync setting (freed pages returned at once), under which a window sort faults fresh
 * pages in every time: influencer_leaderboard took 195 ms there against 30 ms.
 */
export async function askAsAnalyst(targets: readonly QuestionTarget[]): Promise<QuestionResults[]> {
  const env = { ...process.env };
  delete env.DUCKDB_JE_MALLOC_CONF;
  const child = fileURLToPath(new URL('./history-questions-child.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [child, JSON.stringify(targets)], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as QuestionResults[];
}
