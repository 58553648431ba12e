import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { BUILT_CLI } from '../../src/util/built-cli.js';
import { packageRoot } from '../../src/util/package-root.js';

/**
 * Compiles the project to dist/ (tsconfig.build.json) so a child process can run the real CLI.
 * tsc emits even when an unrelated file has a type error; only a missing CLI is fatal here.
 */
export async function buildCli(): Promise<string> {
  await promisify(execFile)(
    process.execPath,
    [join(packageRoot(), 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: packageRoot(),
    },
  ).catch(() => undefined);
  if (!existsSync(BUILT_CLI)) throw new Error(`build did not produce ${BUILT_CLI}`);
  return BUILT_CLI;
}

export interface SinkChild {
  readonly process: ChildProcess;
  /** Base URL the child logged once listening. */
  readonly url: string;
  readonly exited: Promise<number | null>;
  /** Everything the child wrote on stderr (its JSON log lines). */
  stderr(): string;
}

/** Runs `campaign-warehouse sink --port 0 ...` in a child process; resolves once it listens. */
export function spawnSinkCli(dataDir: string, args: string[] = []): Promise<SinkChild> {
  const child = spawn(process.execPath, [BUILT_CLI, 'sink', '--port', '0', '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CW_LOG_LEVEL: 'info' },
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
