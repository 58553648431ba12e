/**
 * Configuration of `serve`, validated once before anything starts (no listener, thread or
 * database yet): the sync settings (sync-config.ts), the schedule and the sink's options.
 */

import { cronProblem, timezoneProblem } from '../config/schedule-check.js';
import { resolveSyncConfig, type SyncConfig, type SyncFlags } from '../config/sync-config.js';
import { checkSinkFlags, type SinkOptions } from '../sink/sink-options.js';
import { UserError } from '../util/user-error.js';

export interface ServiceFlags extends Pick<SyncFlags, 'baseUrl' | 'dataDir' | 'config' | 'remote'> {
  readonly host?: string;
  readonly port?: number;
  /** Seconds. */
  readonly publishInterval?: number;
  readonly bodyLimit?: number;
  readonly bodyBudget?: number;
  readonly depthLimit?: number;
  /** Seconds, as the next two. */
  readonly headersTimeout?: number;
  readonly requestTimeout?: number;
  readonly keepAliveTimeout?: number;
  readonly maxConnections?: number;
  readonly cron?: string;
  readonly timezone?: string;
}

export interface ServiceConfig {
  readonly sync: SyncConfig;
  readonly schedule: { readonly cron: string; readonly timezone: string };
  readonly sink: Omit<SinkOptions, 'dataDir' | 'logger' | 'openInbox'>;
}

export function resolveServiceConfig(
  flags: ServiceFlags,
  env: NodeJS.ProcessEnv = process.env,
): ServiceConfig {
  // The flags first: a bad --cron is named even when the environment lacks the API key.
  const flagProblem =
    (flags.cron !== undefined && named('--cron', cronProblem(flags.cron))) ||
    (flags.timezone !== undefined && named('--timezone', timezoneProblem(flags.timezone))) ||
    (flags.host !== undefined && flags.host.trim() === '' && '--host: an address cannot be empty');
  if (flagProblem) throw new UserError(flagProblem);
  const seconds = (value: number | undefined) => (value === undefined ? undefined : Math.round(value * 1000));
  const sink = {
    host: flags.host,
    port: flags.port,
    bodyLimitBytes: flags.bodyLimit,
    bodyBudgetBytes: flags.bodyBudget,
    bodyDepthLimit: flags.depthLimit,
    headersTimeoutMs: seconds(flags.headersTimeout),
    requestTimeoutMs: seconds(flags.requestTimeout),
    keepAliveTimeoutMs: seconds(flags.keepAliveTimeout),
    maxConnections: flags.maxConnections,
    publishIntervalMs: seconds(flags.publishInterval),
  };
  checkSinkFlags(sink);
  const sync = resolveSyncConfig(flags, env);
  return {
    sync,
    // The config file's schedule was checked with the file (config-file-schema.ts).
    schedule: {
      cron: flags.cron ?? sync.schedule.cron,
      timezone: flags.timezone ?? sync.schedule.timezone,
    },
    sink,
  };
}

/** A flag's problem as its error line, or undefined when there is none. */
function named(flag: string, problem: string | undefined): string | undefined {
  return problem && `${flag}: ${problem}`;
}
