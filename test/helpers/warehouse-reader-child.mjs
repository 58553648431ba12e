// A separate reader process for the warehouse tests (plain JS: children cannot load TS).
// Usage:
//   node warehouse-reader-child.mjs hold <file>     open READ_ONLY, keep the connection;
//        prints {"count":n} now and on each "query" line of stdin; "exit" closes.
//   node warehouse-reader-child.mjs loop <file> <ms> open, check, close in a loop for <ms>;
//        prints {"opens":n,"failures":[...],"inconsistent":[...],"counts":[...],"mixed":n}.
// The checked state: each publish of the tests adds 10 documents and one delivery announcing
// 10, so each table published whole counts a multiple of 10; a state that is not is
// `inconsistent`. The two tables are swapped one after the other (docs/lake.md, "Readers"):
// a query planned across a publish can count one table's publish and not yet the other's,
// so sum(documents) = count(stream_documents) holds once publishes settle, not in every query
// (`mixed` counts those that saw the two tables at different publishes).
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
  const result = { opens: 0, failures: [], inconsistent: [], counts: [], mixed: 0 };
  while (Date.now() < until) {
    try {
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      const state = await readState(connection);
      connection.closeSync();
      instance.closeSync();
      result.opens += 1;
      if (state.docs % 10 !== 0 || state.announced % 10 !== 0) result.inconsistent.push(state);
      if (state.docs !== state.announced) result.mixed += 1;
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
