import type { Command } from 'commander';
import type { ServiceFlags } from '../service/service-config.js';
import { CONFIG_OPTION, dataDirOption, REMOTE_OPTION } from './data-dir-options.js';
import { numberIn, portNumber } from './number-in.js';
import {
  GUARD_OPTIONS,
  MAX_CONNECTIONS,
  MAX_PUBLISH_INTERVAL_SECONDS,
  MAX_TIMEOUT_SECONDS,
} from './sink-command.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'the sink plus the nightly sync schedule in one long-running process (default: 21:30 UTC, after the ' +
        'API refresh window); catches up at start and after missed slots, retries a failed night with backoff',
    )
    .option(
      '--host <host>',
      'sink address (put a TLS-terminating proxy in front: the API pushes to HTTPS only)',
      '127.0.0.1',
    )
    .option('--port <n>', 'sink port', portNumber, 8787)
    .option(
      '--publish-interval <seconds>',
      'longest time from acknowledgement to the published warehouse',
      numberIn(0, MAX_PUBLISH_INTERVAL_SECONDS),
      30,
    )
    .option(
      '--body-limit <bytes>',
      'largest accepted push body (default: 10 MiB)',
      numberIn(1, 1024 ** 3, true),
    )
    .option(...GUARD_OPTIONS.bodyBudget, numberIn(1, Number.MAX_SAFE_INTEGER, true))
    .option(...GUARD_OPTIONS.depthLimit, numberIn(2, Number.MAX_SAFE_INTEGER, true))
    .option(...GUARD_OPTIONS.headersTimeout, numberIn(0, MAX_TIMEOUT_SECONDS))
    .option(...GUARD_OPTIONS.requestTimeout, numberIn(0, MAX_TIMEOUT_SECONDS))
    .option(...GUARD_OPTIONS.keepAliveTimeout, numberIn(0, MAX_TIMEOUT_SECONDS))
    .option(...GUARD_OPTIONS.maxConnections, numberIn(0, MAX_CONNECTIONS, true))
    .option(
      '--cron <expr>',
      'when the nightly sync runs (default: "30 21 * * *", or the config file\'s schedule.cron)',
    )
    .option('--timezone <tz>', 'time zone of --cron (default: UTC)')
    .option(...dataDirOption())
    .option('--base-url <url>', 'API base URL [env CW_BASE_URL]; the key comes from CW_API_KEY')
    .option(...CONFIG_OPTION)
    .option(...REMOTE_OPTION)
    .action(async (flags: ServiceFlags) => {
      const { runService } = await import('../service/run-service.js');
      await runService(flags);
    });
}
