// The sink's inbox commits, on a worker thread (see inbox-writer.ts). Plain CommonJS so the
// same file runs under the built CLI and under vitest, which cannot start a TypeScript worker.
// Protocol: workerData { file, pragmas, maxRows, driver } (driver: the better-sqlite3 package
// this Node can run, chosen by sqlite-database.ts); each message { seq, rows } with rows
// [hookId, receivedAt, body, bytes, documents][]. Messages already waiting when a commit starts
// join it (up to maxRows rows): ONE transaction, committed and fsynced, answers all of them with
// { commits: [{ seq, ids }], durationMs }, or { seqs, error } when it could not be committed.
// { close: true } closes the database and ends the thread. If the database cannot be opened,
// it posts { fatal } and exits.
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const Database = require(workerData.driver);

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
const commit = sqlite.transaction((batches) =>
  batches.map(({ seq, rows }) => ({
    seq,
    ids: rows.map((row) => Number(insert.run(row[0], row[1], row[2], row[3], row[4]).lastInsertRowid)),
  })),
);

let closing = false;

parentPort.on('message', (message) => {
  if (message.close) return close();
  // Commits in arrival order; a message that would take a transaction past maxRows starts
  // the next one at once.
  for (let first = message; first !== undefined; ) first = commitFrom(first);
  if (closing) close();
});

/** Commits `first` and whatever is already waiting after it; returns the message held back. */
function commitFrom(first) {
  const batches = [first];
  let rows = first.rows.length;
  let heldBack;
  // Group commit across messages: whatever the event loop posted while the last commit ran.
  for (;;) {
    const next = receiveMessageOnPort(parentPort)?.message;
    if (next === undefined) break;
    if (next.close) {
      closing = true;
      break;
    }
    if (rows + next.rows.length > workerData.maxRows) {
      heldBack = next;
      break;
    }
    batches.push(next);
    rows += next.rows.length;
  }
  const started = performance.now();
  try {
    const commits = commit(batches);
    parentPort.postMessage({ commits, durationMs: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({
      seqs: batches.map((batch) => batch.seq),
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return heldBack;
}

function close() {
  sqlite.close();
  parentPort.close();
}
