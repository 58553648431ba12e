/**
 * State migration 0001 (runs.failures): a first-release state file upgrades in place, its
 * failed runs counting one failed attempt each; and a file another process is upgrading at
 * the same moment still opens (drizzle checks what is applied before its transaction).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStateDb, STATE_DB_FILE } from '../../src/state/state-db.js';
import { firstReleaseDb } from '../helpers/first-release-db.js';
import { tempDir } from '../helpers/temp-dir.js';

const STATE_MIGRATIONS = (
  JSON.parse(readFileSync(join('sql', 'state', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;
const MIGRATING_CHILD = fileURLToPath(new URL('../helpers/migrating-child.mjs', import.meta.url));

describe('state upgrade', () => {
  it('adds runs.failures: 1 for runs that had failed, 0 for the others', () => {
    const dir = tempDir('cw-state-upgrade-');
    const old = firstReleaseDb(join(dir, STATE_DB_FILE), 'state');
    const insert = old.prepare(
      "insert into runs (run_id, snapshot_date, status, trigger, started_at) values (?, '2026-11-20', ?, 'manual', '2026-11-21T00:00:00Z')",
    );
    insert.run('failed-run', 'failed');
    insert.run('good-run', 'succeeded');
    old.close();
    const state = openStateDb(dir);
    try {
      expect(state.sqlite.prepare('select run_id, failures from runs order by run_id').all()).toEqual([
        { run_id: 'failed-run', failures: 1 },
        { run_id: 'good-run', failures: 0 },
      ]);
    } finally {
      state.close();
    }
  });

  it('opens a state file that another process upgrades at the same moment', async () => {
    const dir = tempDir('cw-state-upgrade-');
    firstReleaseDb(join(dir, STATE_DB_FILE), 'state').close();
    const child = spawn(
      process.execPath,
      [MIGRATING_CHILD, join(dir, STATE_DB_FILE), join('sql', 'state'), '1000'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = once(child, 'exit');
    for await (const line of createInterface({ input: child.stdout })) if (line === 'migrating') break;
    // The child holds the write lock with the migration applied but not committed: this open
    // sees it pending, waits for the lock, and must not fail once the child commits.
    const state = openStateDb(dir);
    try {
      const columns = state.sqlite.prepare("select name from pragma_table_info('runs')").pluck().all();
      expect(columns).toContain('failures');
      const recorded = state.sqlite.prepare('select count(*) from __drizzle_migrations').pluck().get();
      // Every migration of sql/state/ (its journal), each recorded once.
      expect(recorded).toBe(STATE_MIGRATIONS);
    } finally {
      state.close();
    }
    expect(await exited).toEqual([0, null]);
  });
});
