import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BUILT_CLI } from '../../src/util/built-cli.js';

export interface SinkChild {
  readonly process: ChildProcess;
  /** Base URL the child logged once listening. */
  readonly url: string;
  readonly exited: Promise<number | null>;
  /** Everything the child wrote on stderr (its JSON log lines). */
  stderr(): string;
}

/** Runs `campaign-warehouse sink --port 0 ...` in a child process (`env` added to this one's); resolves once it listens. */
export function spawnSinkCli(
  dataDir: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<SinkChild> {
  const child = spawn(process.execPath, [BUILT_CLI, 'sink', '--port', '0', '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CW_LOG_LEVEL: 'info', ...env },
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      stderr += `${line}\n`;
      const url = /"url":"(http:[^"]+)"/.exec(line)?.[1];
      if (url && line.includes('listening')) resolve({ process: child, url, exited, stderr: () => stderr });
    });
    exited.then((code) => reject(new Error(`sink child exited ${code} before listening:\n${stderr}`)));
  });
}
