/**
 * `status` only reads. Run against first-release state and inbox files (as an older `serve`
 * left them, possibly still running beside it), it applies no migration and changes no byte of
 * either file: it reports what their schema has and says the service upgrades them at its next
 * start. On an empty data folder it creates no file.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOX_DB_FILE } from '../../src/state/inbox-db.js';
import { Database } from '../../src/state/sqlite-database.js';
import { STATE_DB_FILE } from '../../src/state/state-db.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { firstReleaseDb } from '../helpers/first-release-db.js';
import { tempDir } from '../helpers/temp-dir.js';

let cli = '';
beforeAll(() => {
  cli = ensureBuiltCli();
}, 120_000);

async function status(dataDir: string, json = false): Promise<string> {
  const args = [cli, 'status', '--data-dir', dataDir, ...(json ? ['--json'] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    env: { ...process.env, CW_LOG_LEVEL: 'warn' },
  });
  return stdout;
}

/** The file's bytes and its schema as SQLite and drizzle record it. */
function fingerprint(file: string): { sha256: string; schema: unknown[]; migrations: unknown[] } {
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  const db = new Database(file, { readonly: true });
  try {
    return {
      sha256,
      schema: db.prepare('select type, name, sql from sqlite_master order by name').all(),
      migrations: db.prepare('select hash, created_at from __drizzle_migrations order by id').all(),
    };
  } finally {
    db.close();
  }
}

describe('status only reads', () => {
  it('leaves first-release state and inbox files unchanged, reports them, and says they will be upgraded', async () => {
    const dir = tempDir('cw-status-');
    const state = firstReleaseDb(join(dir, STATE_DB_FILE), 'state');
    state
      .prepare(
        "insert into runs (run_id, snapshot_date, status, trigger, started_at, finished_at, error) values ('r1', '2026-11-20', 'failed', 'scheduled', '2026-11-20T21:30:00Z', '2026-11-20T21:31:00Z', 'API 503')",
      )
      .run();
    state
      .prepare(
        "insert into hooks (hook_id, search_id, search_type, target_url, path_token, secret, status, created_at) values ('h1', 7, 'social', 'https://sink.example/hooks/t', 't', 'a-secret-of-32-characters-long!!', 'ACTIVE', '2026-11-20T00:00:00Z')",
      )
      .run();
    state.close();
    const inbox = firstReleaseDb(join(dir, INBOX_DB_FILE), 'inbox');
    const insert = inbox.prepare(
      "insert into deliveries (hook_id, received_at, body, bytes, documents, loaded_at) values ('h1', ?, x'7b7d', 2, 1, ?)",
    );
    insert.run('2026-11-20T10:00:00.000Z', '2026-11-20T10:00:30.000Z');
    insert.run('2026-11-20T11:00:00.000Z', null);
    inbox.close();
    const before = [fingerprint(join(dir, STATE_DB_FILE)), fingerprint(join(dir, INBOX_DB_FILE))];

    const text = await status(dir);
    expect(text).toContain('2026-11-20  failed');
    expect(text).toContain('error: API 503');
    expect(text).toMatch(/h1 {2}search 7 \(social\) {2}ACTIVE {2}secret held/);
    expect(text).toContain(
      'inbox: backlog 1, last delivery 2026-11-20T11:00:00.000Z, last publish 2026-11-20T10:00:30.000Z',
    );
    expect(text).toContain('note: state.sqlite and inbox.sqlite have an older schema');
    expect(text).toContain('upgrades it at its next start');
    expect(text).not.toContain('a-secret-of-32');
    const report = JSON.parse(await status(dir, true)) as { olderSchema: string[]; runs: unknown[] };
    expect(report.olderSchema).toEqual(['state.sqlite', 'inbox.sqlite']);
    expect(report.runs).toMatchObject([{ runId: 'r1', status: 'failed', failures: 0 }]);

    expect([fingerprint(join(dir, STATE_DB_FILE)), fingerprint(join(dir, INBOX_DB_FILE))]).toEqual(before);
    const columns = new Database(join(dir, STATE_DB_FILE), { readonly: true });
    expect(columns.prepare("select name from pragma_table_info('runs')").pluck().all()).not.toContain(
      'failures',
    );
    columns.close();
  });

  it('creates no file in an empty data folder', async () => {
    const dir = tempDir('cw-status-');
    const text = await status(dir);
    expect(text).toContain('not published yet');
    expect(text).toContain('last runs:\n  none');
    expect(text).not.toContain('note:');
    expect(readdirSync(dir)).toEqual([]);
  });
});
