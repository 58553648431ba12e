// Child of sqlite-gc.test.ts, run with `node --expose-gc`: drives the built state database the
// way a long `serve` does, with garbage collections while statements and connections die.
// better-sqlite3 12 aborts on Node 24 when the collector destroys a Statement in a young-
// generation collection that keeps many objects alive (here: the rows a round builds, as the
// report step builds its tables), "Assertion failed: (env) != nullptr", exit 134; with 12
// forced on Node 24 this child aborts within the first ten rounds. The driver this Node is
// given must not abort.
// Usage: node --expose-gc sqlite-gc-child.mjs <dataDir> <rounds>
// Prints {"driver":..,"natives":[..],"prepared":n,"collections":n} and exits 0 when nothing
// aborted; natives: the better-sqlite3 packages whose binary is mapped in (Linux), else null.
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { runs } from '../../dist/src/state/schema.js';
import { SQLITE_DRIVER } from '../../dist/src/state/sqlite-database.js';
import { openStateDb } from '../../dist/src/state/state-db.js';

/** Statements each round prepares, runs and drops. */
const STATEMENTS_PER_ROUND = 20;
/** Rows each round holds while its statements are garbage: young survivors for the collector. */
const ROWS_PER_ROUND = 200_000;

const [dataDir, rounds] = process.argv.slice(2);
let prepared = 0;
let collections = 0;
let held = 0;
const collect = () => {
  globalThis.gc();
  collections += 1;
};

for (let round = 0; round < Number(rounds); round += 1) {
  const state = openStateDb(dataDir);
  for (let i = 0; i < STATEMENTS_PER_ROUND; i += 1) {
    state.sqlite.prepare(`select ? + ${i} as n`).get(round);
    prepared += 1;
  }
  // drizzle prepares (and drops) its own statements too.
  state.db.select().from(runs).all();
  // Every other connection is left for the collector instead of closed, as a crashed caller would.
  if (round % 2 === 0) state.close();
  const rows = Array.from({ length: ROWS_PER_ROUND }, (_, n) => ({ n, label: `row ${n}` }));
  held += rows.length;
}
// Not forced during the rounds: a full collection run from JavaScript destroys the statements
// safely, so it would take the garbage away from the young-generation collections above.
collect();

// A worker thread (the inbox's commits run on one) whose statements outlive its environment.
const worker = new Worker(
  `const Database = require(${JSON.stringify(SQLITE_DRIVER)});
   const db = new Database(${JSON.stringify(join(dataDir, 'state.sqlite'))});
   for (let i = 0; i < ${STATEMENTS_PER_ROUND}; i += 1) db.prepare('select ? + 1').get(i);
   globalThis.kept = db.prepare('select 1');`,
  { eval: true },
);
const [code] = await once(worker, 'exit');
if (code !== 0) throw new Error(`the worker thread exited ${code}`);
prepared += STATEMENTS_PER_ROUND + 1;
collect();
const natives = existsSync('/proc/self/maps')
  ? [
      ...new Set(
        [
          ...readFileSync('/proc/self/maps', 'utf8').matchAll(
            /\/node_modules\/(better-sqlite3(?:-13)?)\/\S*\.node$/gm,
          ),
        ].map((match) => match[1]),
      ),
    ]
  : null;
process.stdout.write(`${JSON.stringify({ driver: SQLITE_DRIVER, natives, prepared, held, collections })}\n`);
