// A separate reader process for the warehouse tests (plain JS: children cannot load TS).
// Usage:
//   node warehouse-reader-child.mjs hold <file>     open READ_ONLY, keep the connection;
//        prints {"count":n} now and on each "query" line of stdin; "exit" closes.
//   node warehouse-reader-child.mjs loop <file> <ms> open, check, close in a loop for <ms>;
//        prints {"opens":n,"failures":[...],"inconsistent":[...],"counts":[...]}.
// The checked state: every stream_deliveries row announces the documents it carried,
// so a complete published state has sum(documents) = count(stream_documents).
import { createInterface } from 'node:readline';
import { DuckDBInstance } from '@duckdb/node-api';

const CHECK = `select (select count(*) from stream_documents) as docs,
                      (select coalesce(sum(documents), 0) from stream_deliveries) as announced`;

async function readState(connection) {
  const reader = await connection.runAndReadAll(CHECK);
  const [docs, announced] = reader.getRows()[0];
  return { docs: Number(docs), announced: Number(announced) };
}

const [mode, file, ms] = process.argv.slice(2);
if (mode === 'hold') {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const print = async () => process.stdout.write(`${JSON.stringify(await readState(connection))}\n`);
  await print();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'query') await print();
    if (line === 'exit') break;
  }
  connection.closeSync();
  instance.closeSync();
  process.stdin.destroy(); // stdin would keep the process alive
} else if (mode === 'loop') {
  const until = Date.now() + Number(ms);
  const result = { opens: 0, failures: [], inconsistent: [], counts: [] };
  while (Date.now() < until) {
    try {
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      const state = await readState(connection);
      connection.closeSync();
      instance.closeSync();
      result.opens += 1;
      if (state.docs !== state.announced) result.inconsistent.push(state);
      if (result.counts.at(-1) !== state.docs) result.counts.push(state.docs);
    } catch (error) {
      result.failures.push(String(error?.message ?? error));
    }
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exitCode = 2;
}
