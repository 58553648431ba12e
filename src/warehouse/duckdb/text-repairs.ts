/**
 * The text this thread repaired on its way into DuckDB (well-formed-text.ts; the sink's bodies
 * of invalid UTF-8), counted per table and column until a run takes the tally for its one
 * warning (takeRepairedText). One tally per thread: a sync runs in its own process, the sink's
 * loader in its own thread.
 */

/** What was repaired since the tally was last taken. */
export interface RepairedText {
  /** Values repaired (a value with several bad characters counts once). */
  readonly values: number;
  /** `table.column` → values repaired there. */
  readonly fields: Readonly<Record<string, number>>;
}

let tally = new Map<string, number>();

/** Counts `values` repaired values of `table`.`column`. */
export function noteRepairedText(table: string, column: string, values = 1): void {
  const field = `${table}.${column}`;
  tally.set(field, (tally.get(field) ?? 0) + values);
}

/** The tally since the last call (undefined: nothing repaired), which starts a new one. */
export function takeRepairedText(): RepairedText | undefined {
  if (tally.size === 0) return undefined;
  const taken = tally;
  tally = new Map();
  const fields = Object.fromEntries([...taken].sort(([a], [b]) => a.localeCompare(b)));
  return { values: [...taken.values()].reduce((sum, n) => sum + n, 0), fields };
}

/** The warning's one line: how many values, in which fields, and what became of them. */
export function repairedTextMessage(repaired: RepairedText): string {
  const fields = Object.entries(repaired.fields)
    .map(([field, n]) => `${field} ${n}`)
    .join(', ');
  return `broken text repaired in ${repaired.values} value${repaired.values === 1 ? '' : 's'} (${fields}): lone UTF-16 surrogates and invalid UTF-8 stored as U+FFFD`;
}
