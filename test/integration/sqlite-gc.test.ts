import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SQLITE_DRIVER } from '../../src/state/sqlite-database.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHILD = join('test', 'helpers', 'sqlite-gc-child.mjs');
/** Rounds of the child (20 statements, 200k rows each): 12 forced on Node 24 aborts well within them. */
const ROUNDS = 20;

describe('SQLite under garbage collection (a real child process, node --expose-gc)', () => {
  it(`survives statements, connections and a worker thread collected on Node ${process.versions.node}`, async () => {
    ensureBuiltCli();
    const dir = tempDir('cw-sqlite-gc-');
    const child = spawn(process.execPath, ['--expose-gc', CHILD, dir, String(ROUNDS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code, signal] = await once(child, 'exit');
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    const report = JSON.parse(stdout) as {
      driver: string;
      natives: string[] | null;
      prepared: number;
      collections: number;
    };
    expect(report.driver).toBe(SQLITE_DRIVER);
    // Only the chosen major's binary is loaded (drizzle's import of 'better-sqlite3' loads no binary).
    if (report.natives !== null) expect(report.natives).toEqual([SQLITE_DRIVER]);
    expect(report.prepared).toBeGreaterThanOrEqual(ROUNDS * 20);
    expect(report.collections).toBe(2);
  });
});
