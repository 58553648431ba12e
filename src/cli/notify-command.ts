import type { Command } from 'commander';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

interface NotifyTestFlags {
  config?: string;
  dataDir?: string;
}

/** `campaign-warehouse notify test`: one test message to every configured target, each one's result printed. */
export function registerNotify(program: Command): void {
  const notify = program
    .command('notify')
    .description('notifications of failures, stale data, failing checks and the sink (see docs/deploy.md)');
  notify
    .command('test')
    .description(
      'send a test message to every configured webhook and to the heartbeat (its /log endpoint, which ' +
        'changes nothing); print each target by its host with its result; exit 1 if one failed',
    )
    .addHelpText(
      'after',
      '\nTargets: the config file\'s "notify" section, else CW_NOTIFY_WEBHOOK (a Slack-format webhook) and\n' +
        'CW_HEARTBEAT_URL (a healthchecks.io-style heartbeat).\n',
    )
    .option(
      ...dataDirOption(
        'data directory (checked as every command checks it; a test message writes nothing there)',
      ),
    )
    .option(...CONFIG_OPTION)
    .action(async (flags: NotifyTestFlags) => {
      const [
        { readerDataDir },
        { loadConfigFile },
        { resolveNotifyConfig, hasTargets },
        { Notifier },
        { createLogger },
        { UserError },
      ] = await Promise.all([
        import('../config/command-data-dir.js'),
        import('../config/sync-config.js'),
        import('../config/notify-config.js'),
        import('../notify/notifier.js'),
        import('../util/logger.js'),
        import('../util/user-error.js'),
      ]);
      readerDataDir(flags);
      const path = flags.config ?? process.env.CW_CONFIG;
      const config = resolveNotifyConfig(path ? loadConfigFile(path).notify : undefined);
      if (!hasTargets(config))
        throw new UserError(
          'no notification target: add a "notify" section to the config file, or set CW_NOTIFY_WEBHOOK or CW_HEARTBEAT_URL',
        );
      const notifier = new Notifier({ config, dataDir: undefined, logger: createLogger('notify') });
      try {
        const results = await notifier.test();
        for (const r of results) {
          const what = r.target === 'webhook' ? `webhook ${r.host} (${r.format})` : `heartbeat ${r.host}`;
          const outcome = r.result.ok ? `ok (${r.result.status})` : `FAILED: ${r.result.error}`;
          process.stdout.write(`${what}: ${outcome}\n`);
        }
        if (results.some((r) => !r.result.ok)) process.exitCode = 1;
      } finally {
        await notifier.close(0);
      }
    });
}
