import type { Command } from 'commander';

interface NotifyTestFlags {
  config?: string;
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
    .option('--config <file>', 'JSON config file [env CW_CONFIG]')
    .action(async (flags: NotifyTestFlags) => {
      const [
        { loadConfigFile },
        { resolveNotifyConfig, hasTargets },
        { Notifier },
        { createLogger },
        { UserError },
      ] = await Promise.all([
        import('../config/sync-config.js'),
        import('../notify/notify-config.js'),
        import('../notify/notifier.js'),
        import('../util/logger.js'),
        import('../util/user-error.js'),
      ]);
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
