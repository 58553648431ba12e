/**
 * Configuration of a sync, validated once at the edge into a readonly object. Precedence:
 * flags > environment > config file > defaults. The API key comes from CW_API_KEY only:
 * argv is visible to every user of the machine.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_PAGE_SIZE,
  DEFAULT_RESPONSE_DEADLINE_MS,
  DEFAULT_TIMEOUT_MS,
} from '../api/client-defaults.js';
import { validateBaseUrl } from '../api/validate-base-url.js';
import { UserError } from '../util/user-error.js';
import { HISTORY_DEFAULTS } from '../warehouse/checks/history-defaults.js';
import type { HistorySettings } from '../warehouse/index.js';
import { type ConfigFile, configFileSchema, type SegmentConfig } from './config-file-schema.js';
import { resolveDataDir } from './data-dir.js';
import { explainIssue } from './explain-issue.js';
import { type NotifyConfig, resolveNotifyConfig } from './notify-config.js';
import { type RemoteConfig, resolveRemoteConfig } from './remote-config.js';

/**
 * Requests per second when neither flag nor config says: the API's limits depend on the
 * customer's package and are not published; 5/s keeps a nightly run of a few thousand
 * campaigns within the night without tripping a modest package's limit.
 */
export const DEFAULT_RPS = 5;
/** Requests in flight at once: enough to hide latency at DEFAULT_RPS, few enough to be polite. */
export const DEFAULT_CONCURRENCY = 4;
export { DEFAULT_DATA_DIR } from './data-dir.js';

export interface SyncFlags {
  readonly baseUrl?: string;
  readonly dataDir?: string;
  readonly config?: string;
  readonly snapshotDate?: string;
  readonly force?: boolean;
  readonly rps?: number;
  readonly concurrency?: number;
  readonly campaign?: readonly string[];
  readonly strict?: boolean;
  /** The remote lake (--remote), over CW_REMOTE and the config file's `remote`. */
  readonly remote?: string;
}

export interface SyncConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly dataDir: string;
  /** YYYY-MM-DD; undefined: the latest completed refresh (see snapshot-date.ts). */
  readonly snapshotDate?: string;
  readonly force: boolean;
  readonly rps: number;
  readonly concurrency: number;
  readonly pageSize: number;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  /** Headers and whole body of one response within this, ms (default DEFAULT_RESPONSE_DEADLINE_MS). */
  readonly responseDeadlineMs?: number;
  /** Only these campaign ids (all when empty). */
  readonly campaigns: readonly string[];
  readonly segments: readonly SegmentConfig[];
  /** PEM of an extra trusted CA (CW_CA_FILE). */
  readonly ca?: string;
  readonly schedule: { readonly cron: string; readonly timezone: string };
  /** Failing data checks warn (default) or fail the run before its publish (`--strict`). */
  readonly checks?: 'warn' | 'strict';
  /** Where notifications go (the config file's notify section, CW_NOTIFY_WEBHOOK, CW_HEARTBEAT_URL). */
  readonly notify?: NotifyConfig;
  /** The history checks' tolerances (config file `checks.history`, over HISTORY_DEFAULTS). */
  readonly historyChecks?: HistorySettings;
  /** The remote lake each publish is also committed to (docs/remote.md); off when absent. */
  readonly remote?: RemoteConfig;
}

/** The nightly slot: 30 minutes after the API's refresh window (18:00–21:00 UTC) closes. */
export const DEFAULT_SCHEDULE = { cron: '30 21 * * *', timezone: 'UTC' } as const;

export function loadConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(
      `config file ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`config file ${path}: not valid JSON (${(error as Error).message})`);
  }
  return parseWith(configFileSchema, json, `config file ${path}`);
}

/** Settings every command that talks to the API needs: base URL, key, data dir, CA. */
export function resolveApiSettings(
  flags: Pick<SyncFlags, 'baseUrl' | 'dataDir' | 'config'>,
  env: NodeJS.ProcessEnv = process.env,
): { baseUrl: string; apiKey: string; dataDir: string; ca?: string; file: ConfigFile } {
  const configPath = flags.config ?? env.CW_CONFIG;
  const file = configPath ? loadConfigFile(configPath) : {};
  const baseUrl = flags.baseUrl ?? env.CW_BASE_URL ?? file.baseUrl;
  if (!baseUrl) {
    throw new UserError(
      'no API base URL: pass --base-url, set CW_BASE_URL, or set baseUrl in the config file',
    );
  }
  const source =
    flags.baseUrl !== undefined
      ? '--base-url'
      : env.CW_BASE_URL !== undefined
        ? 'CW_BASE_URL'
        : `config file ${configPath}: baseUrl`;
  // "127.0.0.1:8080" would parse as a URL of scheme "127.0.0.1:".
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl))
    throw new UserError(
      `${source}: "${baseUrl}" has no scheme: write https://${baseUrl} (http:// only for a loopback host)`,
    );
  parseWith(z.url({ protocol: /^https?$/ }), baseUrl, source);
  // Refused here, before a run is recorded or anything is opened.
  validateBaseUrl(baseUrl, source);
  const apiKey = env.CW_API_KEY;
  if (!apiKey)
    throw new UserError('CW_API_KEY is not set: export the API key in the environment (never as a flag)');
  // An HTTP header cannot carry it (the first request would fail): a key read from a file often
  // keeps its newline. The message never shows the key.
  if (apiKey.trim() !== apiKey || [...apiKey].some((c) => c < ' ' || c === '\u007f'))
    throw new UserError('CW_API_KEY has surrounding spaces or control characters (a trailing newline?)');
  const caFile = env.CW_CA_FILE;
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (error) {
      throw new UserError(
        `CW_CA_FILE ${caFile}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----'))
      throw new UserError(`CW_CA_FILE ${caFile}: not a PEM certificate`);
  }
  const dataDir = resolveDataDir(
    flags.dataDir,
    env,
    configPath ? { path: configPath, dataDir: file.dataDir } : undefined,
  );
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, dataDir, file, ...(ca ? { ca } : {}) };
}

export function resolveSyncConfig(flags: SyncFlags, env: NodeJS.ProcessEnv = process.env): SyncConfig {
  const api = resolveApiSettings(flags, env);
  const { file } = api;
  if (flags.snapshotDate !== undefined && !isIsoDate(flags.snapshotDate)) {
    throw new UserError(`--snapshot-date: "${flags.snapshotDate}" is not a date (YYYY-MM-DD)`);
  }
  const remote = resolveRemoteConfig(flags.remote, env, file.remote);
  return {
    baseUrl: api.baseUrl,
    apiKey: api.apiKey,
    dataDir: api.dataDir,
    ...(api.ca ? { ca: api.ca } : {}),
    ...(flags.snapshotDate ? { snapshotDate: flags.snapshotDate } : {}),
    force: Boolean(flags.force),
    rps: flags.rps ?? file.rps ?? DEFAULT_RPS,
    concurrency: flags.concurrency ?? file.concurrency ?? DEFAULT_CONCURRENCY,
    pageSize: file.pageSize ?? DEFAULT_PAGE_SIZE,
    maxRetries: file.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: file.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    responseDeadlineMs: file.responseDeadlineMs ?? DEFAULT_RESPONSE_DEADLINE_MS,
    campaigns: [...new Set(flags.campaign ?? [])],
    segments: file.segments ?? [],
    schedule: { ...DEFAULT_SCHEDULE, ...file.schedule },
    checks: flags.strict ? 'strict' : (checkMode(file.checks) ?? 'warn'),
    ...(typeof file.checks === 'object' && file.checks.history
      ? { historyChecks: { ...HISTORY_DEFAULTS, ...file.checks.history } }
      : {}),
    notify: resolveNotifyConfig(file.notify, env),
    ...(remote ? { remote } : {}),
  };
}

/** `checks` is a mode ("strict") or an object with one ({ "mode": "strict", "history": … }). */
function checkMode(checks: ConfigFile['checks']): 'warn' | 'strict' | undefined {
  return typeof checks === 'string' ? checks : checks?.mode;
}

/** A real calendar day as YYYY-MM-DD (2026-02-30 and 2026-13-45 are not). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, source: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new UserError(`${source}: ${explainIssue(schema, result.error.issues[0]!, value)}`);
}
