// Opens the catalog with DuckDB 1.1 (the devDependency duckdb-v1-1: the oldest DuckDB that BI
// drivers still bundle), read-only, and counts the rows of every table and view of schema
// main. Prints {"version":..., "counts":{name: n}, "errors":[...]}.
// Usage: node duckdb-1-1-child.mjs <warehouse.duckdb>
import { DuckDBInstance } from 'duckdb-v1-1';

// (1.1's API has no close: the process ends with the query.)
const instance = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const one = async (sql) => (await connection.runAndReadAll(sql)).getRows();
const [[version]] = await one('select version()');
const names = await one(
  "select table_name from information_schema.tables where table_schema = 'main' order by 1",
);
const counts = {};
const errors = [];
for (const [name] of names) {
  try {
    counts[name] = Number((await one(`select count(*) from "${name}"`))[0][0]);
  } catch (error) {
    errors.push(`${name}: ${String(error.message).split('\n')[0]}`);
  }
}
process.stdout.write(`${JSON.stringify({ version, counts, errors })}\n`);
