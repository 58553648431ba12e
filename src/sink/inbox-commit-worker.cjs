// The sink's inbox commits, on a worker thread (see inbox-writer.ts). Plain CommonJS so the
// same file runs under the built CLI and under vitest, which cannot start a TypeScript worker.
// Protocol: workerData { file, pragmas }; each message { rows } with rows
// [hookId, receivedAt, body, bytes, documents][], answered { ids, durationMs } once the
// transaction is committed and fsynced, or { error } when it could not be (one batch at a time);
// { close: true } closes the database and ends the thread. If the database cannot be
// opened, it posts { fatal } and exits.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

let sqlite;
try {
  sqlite = new Database(workerData.file);
  for (const pragma of workerData.pragmas) sqlite.pragma(pragma);
} catch (error) {
  // Errors lose their message crossing threads: say it, then end (the writer rejects the batch).
  parentPort.postMessage({ fatal: error instanceof Error ? `${error.message}` : String(error) });
  process.exit(1);
}
const insert = sqlite.prepare(
  'insert into deliveries (hook_id, received_at, body, bytes, documents) values (?, ?, ?, ?, ?)',
);
const commit = sqlite.transaction((rows) =>
  rows.map((row) => Number(insert.run(row[0], row[1], row[2], row[3], row[4]).lastInsertRowid)),
);

parentPort.on('message', ({ rows, close }) => {
  if (close) {
    sqlite.close();
    parentPort.close();
    return;
  }
  const started = performance.now();
  try {
    const ids = commit(rows);
    parentPort.postMessage({ ids, durationMs: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
