// A BI connector's DuckDB in its own process (plain JS: children cannot load TS).
// Usage:
//   node bi-attach-child.mjs attach <sql>   an in-memory database that runs <sql> (the
//        docs/deploy.md recipe: ATTACH ... (READ_ONLY); USE ...) and keeps its connection
//   node bi-attach-child.mjs rw <file>      opens <file> read-write, as a connector that takes
//        only a path does
// Then prints {"ready":true}, and on each "query" line of stdin {"rows":n} (the rows of
// campaign_metrics) or {"error":"..."}; "exit" closes.
import { createInterface } from 'node:readline';
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, arg] = process.argv.slice(2);
const instance = await DuckDBInstance.create(mode === 'rw' ? arg : ':memory:');
const connection = await instance.connect();
if (mode === 'attach') await connection.run(arg);
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'exit') break;
  try {
    const reader = await connection.runAndReadAll('select count(*) from campaign_metrics');
    process.stdout.write(`${JSON.stringify({ rows: Number(reader.getRows()[0][0]) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: String(error.message).split('\n')[0] })}\n`);
  }
}
connection.closeSync();
instance.closeSync();
process.stdin.destroy(); // stdin would keep the process alive
