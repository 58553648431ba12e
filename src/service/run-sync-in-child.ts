import { spawn } from 'node:child_process';
import type { SyncSummary } from '../extract/run-sync.js';
import { BUILT_CLI, cliNodeFlags } from '../util/built-cli.js';
import type { Logger } from '../util/logger.js';

export interface SyncInChildInput {
  readonly snapshotDate: string;
  /** Recorded in the run: scheduled, catch-up, retry. */
  readonly trigger: string;
  readonly dataDir: string;
  readonly baseUrl?: string;
  readonly configFile?: string;
  /** serve's --remote (the child reads CW_REMOTE and the config file itself). */
  readonly remote?: string;
  /**
   * Run even inside the API's refresh window (`sync --force`). The scheduler never needs it:
   * it only starts syncs after the window.
   */
  readonly force?: boolean;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * Runs one sync as a child process of the CLI, as `serve` does: the sync's CPU, memory and
 * synchronous DuckDB calls then never hold the sink's event loop (acknowledgements never
 * wait for a sync), and a sync that crashes cannot take the sink down. The child inherits the
 * environment (CW_API_KEY never goes on its command line) and stderr (its JSON log lines);
 * its summary is logged here and resolved. Aborting sends SIGTERM: the sync stops at a safe point and stays
 * resumable; so does it when this process dies without a word (SIGKILL), through the IPC
 * channel the child watches. Resolves with the summary on exit 0, and on exit 1 after a summary
 * (the local run succeeded, its remote commit did not); otherwise rejects with the child's last
 * line of stderr.
 */
export function runSyncInChild(input: SyncInChildInput): Promise<SyncSummary | undefined> {
  // --no-notify: serve reports the outcome itself (run-service.ts), with its retry plan.
  const args = [
    ...cliNodeFlags(),
    BUILT_CLI,
    'sync',
    '--json',
    '--no-notify',
    '--snapshot-date',
    input.snapshotDate,
  ];
  args.push('--trigger', input.trigger, '--data-dir', input.dataDir);
  if (input.baseUrl) args.push('--base-url', input.baseUrl);
  if (input.configFile) args.push('--config', input.configFile);
  if (input.force) args.push('--force');
  if (input.remote) args.push('--remote', input.remote);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  child.channel?.unref(); // the channel is only for the child to notice this process is gone
  let stdout = '';
  let lastError = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    process.stderr.write(text);
    const lines = text.split('\n').filter((line) => line.startsWith('campaign-warehouse:'));
    if (lines.length) lastError = lines.at(-1)!;
  });
  const stop = () => child.kill('SIGTERM');
  input.signal.addEventListener('abort', stop, { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      input.signal.removeEventListener('abort', stop);
      const summary = summaryOf(stdout);
      if (code === 0 || (code === 1 && summary)) {
        // Exit 1 after a summary: the run and its publish stand, only the remote commit failed.
        // Running the sync again would ask the API for nothing new; the next publish or
        // `remote push` catches the remote up, and remote_behind tells of the lag.
        if (code !== 0) input.logger.warn({ error: lastError }, 'sync published; its remote commit failed');
        input.logger.info(summary ?? {}, 'sync finished');
        resolve(summary);
        return;
      }
      reject(new Error(lastError || `sync exited with ${signal ?? `code ${code}`}`));
    });
  });
}

/** The summary `sync --json` prints as its last line of stdout once the run succeeded. */
function summaryOf(stdout: string): SyncSummary | undefined {
  const line = stdout.trim().split('\n').at(-1);
  if (!line?.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as SyncSummary;
  } catch {
    return undefined;
  }
}
