import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { processIsAlive } from '../../util/process-is-alive.js';
import { sqlIdentifier } from './warehouse-paths.js';

/**
 * The in-memory DuckDB instances of the pipeline's write sessions (a staging file's writer, a
 * lake publish), kept for the next session of the process instead of closed.
 *
 * Closing an instance is expensive beyond its own work: DuckDB then purges every allocator arena of
 * the process (`Allocator::FlushAll`), and whatever runs next faults all its memory in afresh: a
 * large share of the demo's time went there (figures: bench/RESULTS.md, "Figures moved out of code
 * comments"). A released instance is therefore reset and kept, and the next session within
 * IDLE_CLOSE_MS takes it: a sync's publish takes its staging writer's instance, the next night
 * takes both. An instance idle longer closes, so a long-running sink still returns its memory
 * between publishes.
 *
 * Reset between sessions: the session's connection is closed (its transaction, temp tables
 * and macros go with it); every database it attached is detached (a file is checkpointed or
 * not as the session left `checkpoint_on_shutdown`); the default in-memory database is
 * replaced by an empty one; checkpoints on shutdown are enabled again. A session takes only an
 * instance created with the same settings: setting `memory_limit` purges the arenas too. One
 * that changes a setting restores it (as write-period.ts does). Should any step fail, the
 * instance is closed instead.
 *
 * An instance's spill folder (temp_directory) cannot change once used, so each instance has
 * its own, `<root>/duckdb-spill-<pid>-<n>`, kept for its life and removed when it closes;
 * folders left by processes that are gone are removed when an instance is created.
 */
export interface DuckDBLease {
  readonly connection: DuckDBConnection;
  /** Ends the session: resets the instance and keeps it for the next one (or closes it). */
  readonly close: () => Promise<void>;
}

/** How long a released instance waits for the next session before it closes. */
export const IDLE_CLOSE_MS = 5_000;

/** Spill folders of this pool, and of the lake sessions of earlier releases. */
const SPILL_FOLDER = /^(?:duckdb|lake)-spill-(\d+)-/;

interface PooledInstance {
  readonly instance: DuckDBInstance;
  /** The spill folders' folder and the settings: what a session must match to take it. */
  readonly key: string;
  readonly spill: string;
  /** Whether DuckDB made its spill folder: it cannot spill again if the folder is removed. */
  spilled?: boolean;
  idleTimer?: NodeJS.Timeout;
}

const idle: PooledInstance[] = [];
let created = 0;
process.once('exit', closeIdleDuckDB);

/**
 * An in-memory DuckDB instance spilling into `root`, created with `settings`, and a new connection
 * to it; `setup` statements run on that connection (attach, use). On failure, nothing is kept.
 */
export async function leaseDuckDB(
  root: string,
  settings: Readonly<Record<string, string>>,
  setup: readonly string[] = [],
): Promise<DuckDBLease> {
  const key = JSON.stringify([root, Object.entries(settings).sort()]);
  const entry = takeIdle(key) ?? (await createInstance(root, key, settings));
  let connection: DuckDBConnection | undefined;
  try {
    connection = await entry.instance.connect();
    for (const statement of setup) await connection.run(statement);
  } catch (error) {
    connection?.closeSync();
    closeInstance(entry);
    throw error;
  }
  const leased = connection;
  let closed = false;
  return {
    connection: leased,
    close: async () => {
      if (closed) return;
      closed = true;
      leased.closeSync();
      try {
        await reset(entry.instance);
      } catch {
        closeInstance(entry);
        return;
      }
      keepIdle(entry);
    },
  };
}

/** Closes every idle instance now (the process exits, or a test wants their folders gone). */
export function closeIdleDuckDB(): void {
  for (const entry of idle.splice(0)) closeInstance(entry);
}

/** The idle instance of `key`; one whose spill folder was removed since is closed instead. */
function takeIdle(key: string): PooledInstance | undefined {
  const index = idle.findIndex((entry) => entry.key === key);
  if (index < 0) return undefined;
  const entry = idle.splice(index, 1)[0]!;
  clearTimeout(entry.idleTimer);
  if (entry.spilled && !existsSync(entry.spill)) {
    closeInstance(entry);
    return undefined;
  }
  return entry;
}

function keepIdle(entry: PooledInstance): void {
  entry.spilled ||= existsSync(entry.spill);
  // One idle instance per folder and settings: a second would only hold memory.
  const other = takeIdle(entry.key);
  if (other) closeInstance(other);
  entry.idleTimer = setTimeout(() => {
    const index = idle.indexOf(entry);
    if (index >= 0) idle.splice(index, 1);
    closeInstance(entry);
  }, IDLE_CLOSE_MS);
  entry.idleTimer.unref();
  idle.push(entry);
}

async function createInstance(
  root: string,
  key: string,
  settings: Readonly<Record<string, string>>,
): Promise<PooledInstance> {
  removeOrphanSpills(root);
  const spill = join(root, `duckdb-spill-${process.pid}-${++created}`);
  const instance = await DuckDBInstance.create(':memory:', { ...settings, temp_directory: spill });
  return { instance, key, spill };
}

/** Closes an instance that holds nothing of a session's (or a failed one's: the same then). */
function closeInstance(entry: PooledInstance): void {
  clearTimeout(entry.idleTimer);
  try {
    entry.instance.closeSync();
  } catch {
    // Nothing of the session's is left in it to lose; the process ends it at worst.
  }
  rmSync(entry.spill, { recursive: true, force: true });
}

/** The instance as a new one, but for its settings and spill folder (see the module's comment). */
async function reset(instance: DuckDBInstance): Promise<void> {
  const connection = await instance.connect();
  try {
    const attached = await connection.runAndReadAll(
      "select database_name from duckdb_databases() where not internal and database_name <> 'memory'",
    );
    for (const [name] of attached.getRows()) await connection.run(`detach ${sqlIdentifier(String(name))}`);
    for (const statement of [
      "attach ':memory:' as pool_reset",
      'use pool_reset',
      'detach memory',
      "attach ':memory:' as memory",
      'use memory',
      'detach pool_reset',
      'pragma enable_checkpoint_on_shutdown',
    ])
      await connection.run(statement);
  } finally {
    connection.closeSync();
  }
}

/** Removes the spill folders in `root` of processes that are gone. */
function removeOrphanSpills(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = SPILL_FOLDER.exec(name)?.[1];
    if (pid && !processIsAlive(Number(pid))) rmSync(join(root, name), { recursive: true, force: true });
  }
}
