// A BI-like reader of the lake tests (plain JS: children cannot load TS): ONE read-only
// connection kept open, querying in a loop until stdin says "stop".
// Usage: node lake-reader-child.mjs <warehouse.duckdb> [duckdb module]
// Each query reads, in one statement: stream documents and the documents their deliveries
// announce, duplicated (hook_id, document_id) keys, and per snapshot date the post_metrics
// rows. Each table is published whole: documents come 10 a publish, a date has `fullDay`
// rows or none; a state breaking that is `inconsistent`. Documents and deliveries are two
// tables, each swapped atomically but not both at once: a query planned across a publish
// can count one table's publish and not yet the other's (`mixed`, counted, not an error).
// Prints {"state":{...}} whenever the state changes, then at the end
// {"queries":n,"failures":[...],"inconsistent":[...],"mixed":n}.
import { createInterface } from 'node:readline';

const [file, module = '@duckdb/node-api', fullDay = '8'] = process.argv.slice(2);
const { DuckDBInstance } = await import(module);
const STATE = `select
  (select count(*) from stream_documents) as docs,
  (select coalesce(sum(documents), 0) from stream_deliveries) as announced,
  (select count(*) - count(distinct (hook_id, document_id)) from stream_documents) as duplicates,
  (select coalesce(list(n order by d), []) from
     (select snapshot_date::varchar as d, count(*) as n from post_metrics group by 1)) as days`;

const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
let stop = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'stop') stop = true;
});
const result = { queries: 0, failures: [], inconsistent: [], mixed: 0 };
let last = '';
while (!stop) {
  try {
    const reader = await connection.runAndReadAll(STATE);
    const [docs, announced, duplicates, days] = reader.getRows()[0];
    const state = {
      docs: Number(docs),
      announced: Number(announced),
      duplicates: Number(duplicates),
      days: days.items.map(Number),
    };
    result.queries += 1;
    if (
      state.docs % 10 !== 0 ||
      state.announced % 10 !== 0 ||
      state.duplicates !== 0 ||
      state.days.some((n) => n !== Number(fullDay))
    )
      result.inconsistent.push(state);
    if (state.docs !== state.announced) result.mixed += 1;
    const text = JSON.stringify(state);
    if (text !== last) process.stdout.write(`${JSON.stringify({ state })}\n`);
    last = text;
  } catch (error) {
    result.failures.push(String(error?.message ?? error).split('\n')[0]);
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.stdout.write(`${JSON.stringify(result)}\n`);
connection.closeSync();
instance.closeSync();
process.stdin.destroy();
