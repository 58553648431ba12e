/**
 * nodejs-polars, another engine reading the remote lake's data files (Rust's Parquet reader,
 * nothing of DuckDB or hyparquet). Its native binary needs Node >= 22: on older Node it does not
 * load, and a test using it says so and does not run; on Node 22 and later it must load.
 */
import type pl from 'nodejs-polars';

export type Polars = typeof pl;

/** Polars, or why it cannot run here (the line a skipped test prints). */
export async function loadPolars(): Promise<{ polars?: Polars; missing?: string }> {
  const major = Number(process.versions.node.split('.')[0]);
  try {
    return { polars: (await import('nodejs-polars')).default };
  } catch (error) {
    if (major >= 22) throw error;
    return {
      missing: `nodejs-polars did not load: its native binary needs Node >= 22 and this is Node ${process.versions.node} (CI runs it on Node 24)`,
    };
  }
}

/** What Polars reads of a set of Parquet files: rows per file, and each numeric column's sum over all. */
export interface PolarsTotals {
  readonly rowsPerFile: readonly number[];
  readonly rows: number;
  readonly sums: Readonly<Record<string, number>>;
}

const NUMERIC = /^DataType\((U?Int\d+|Float\d+)\)$/;

/** Reads each file with `pl.readParquet` and adds up its rows and numeric columns. */
export function polarsTotals(polars: Polars, files: readonly string[]): PolarsTotals {
  const rowsPerFile: number[] = [];
  const sums: Record<string, number> = {};
  for (const path of files) {
    const frame = polars.readParquet(path);
    rowsPerFile.push(frame.height);
    for (const name of frame.columns) {
      const series = frame.getColumn(name);
      if (!NUMERIC.test(dtypeOf(series))) continue;
      sums[name] = (sums[name] ?? 0) + Number(series.sum() ?? 0);
    }
  }
  return { rowsPerFile, rows: rowsPerFile.reduce((n, r) => n + r, 0), sums };
}

/** A column's type as Polars names it; '' for one it cannot convert to JS (Binary). */
function dtypeOf(series: { readonly dtype: unknown }): string {
  try {
    return String(series.dtype);
  } catch {
    return '';
  }
}
