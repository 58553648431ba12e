/**
 * Child process of the stream-parts benchmark: a reader that holds one read-only connection to
 * the catalog (argv[2]) open from the day's first publish on, like a BI tool's pooled one, and
 * times the questions when the benchmark asks (an IPC message `{ rows }`: the documents it must
 * see). It loads DuckDB with DuckDB's own allocator setting, as a reader's client does, not
 * the publishing setting the benchmark process runs with (which made stream_documents_daily
 * take 27.6 ms where a reader takes 15.7: bench/RESULTS.md).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { median } from './history-questions.js';

const QUERY_REPEAT = 7;

const instance = await DuckDBInstance.create(process.argv[2]!, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();

async function timeQuery(sql: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= QUERY_REPEAT; i += 1) {
    const started = performance.now();
    await connection.runAndReadAll(sql);
    if (i > 0) times.push(performance.now() - started);
  }
  return median(times);
}

process.on('message', async ({ rows }: { rows: number }) => {
  const seen = Number(
    (await connection.runAndReadAll('select count(*) from stream_documents')).getRows()[0]![0],
  );
  process.send!(
    seen === rows
      ? {
          countMs: await timeQuery('select count(*) from stream_documents'),
          dailyMs: await timeQuery('select * from stream_documents_daily'),
        }
      : { error: `stream-parts: saw ${seen} documents where ${rows} were published` },
  );
});
process.once('disconnect', () => {
  connection.closeSync();
  instance.closeSync();
});
