import type { Command } from 'commander';
import { CONFIG_OPTION, dataDirOption, REMOTE_OPTION } from './data-dir-options.js';

interface PushFlags {
  dataDir?: string;
  config?: string;
  remote?: string;
  json?: boolean;
}

/** `campaign-warehouse remote push`: commits to the remote lake everything it lacks (docs/remote.md). */
export function registerRemote(program: Command): void {
  const remote = program
    .command('remote')
    .description('the remote lake: the local lake committed to S3 as Apache Iceberg tables (docs/remote.md)');
  remote
    .command('push')
    .description(
      'commit to the remote every table whose files it lacks, a first upload of the history included ' +
        '(resumable, idempotent); credentials from the AWS SDK default chain',
    )
    .option(...REMOTE_OPTION)
    .option(...dataDirOption('where the lake is'))
    .option(...CONFIG_OPTION)
    .option('--json', 'print the outcome as one JSON line')
    .action(runPush);
}

async function runPush(flags: PushFlags): Promise<void> {
  const [{ resolvePushSettings }, { commitRemote }] = await Promise.all([
    import('../remote/resolve-push-settings.js'),
    import('../remote/index.js'),
  ]);
  const { dataDir, remote } = resolvePushSettings(flags);
  const progress = uploadProgress();
  try {
    const result = await commitRemote(dataDir, remote, { verify: true, onProgress: progress.update });
    progress.stop();
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ remote: remote.url, ...result })}\n`);
      return;
    }
    const lines = result.commits.map(
      (c) =>
        `${c.table}: v${c.version} ${c.operation}, +${c.addedFiles} -${c.removedFiles} files, ${mib(c.uploadedBytes)} uploaded`,
    );
    process.stdout.write(
      `${lines.length ? `${lines.join('\n')}\n` : ''}remote ${remote.url}: ${
        result.commits.length
          ? `${result.commits.length} tables committed`
          : 'already current, nothing committed'
      }${result.deleted ? `, ${result.deleted} unreferenced objects deleted` : ''} (${result.requests} requests)\n`,
    );
  } finally {
    progress.stop();
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** On a terminal, one stderr line counting what was uploaded, per table; nothing otherwise. */
function uploadProgress(): { update(p: { table: string; bytes: number }): void; stop(): void } {
  const tty = Boolean(process.stderr.isTTY);
  let total = 0;
  let shown = false;
  return {
    update: ({ table, bytes }) => {
      total += bytes;
      if (!tty) return;
      shown = true;
      process.stderr.write(`\r\x1b[2Kremote push: ${mib(total)} uploaded (${table})`);
    },
    stop: () => {
      if (shown) process.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}
