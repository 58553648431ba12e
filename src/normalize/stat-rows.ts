import { isRecord, toNumber } from './coerce.js';
import type { RefusedValues } from './refused-values.js';
import type { Row, Value } from './rows.js';

/**
 * One row per statistic of a free-form `stats` object, stats the spec does not list
 * included; a value that is not a number keeps its row with value NULL (the stat's name is
 * information) and is counted in `refused` as `<table>.value (stat <name>)`. Flat: a stat holding an object,
 * however deep, is one refused value, never walked. `row` builds the row (an explicit literal:
 * no spread on this hot path).
 */
export function pushStatRows(
  out: Row[],
  table: string,
  stats: unknown,
  refused: RefusedValues | undefined,
  row: (stat: string, value: Value) => Row,
): void {
  if (!isRecord(stats)) return;
  for (const stat in stats) {
    const sent = stats[stat];
    let value = toNumber(sent, table);
    // Refused: counted under the stat's name (built only then, off the hot path).
    if (value === null && refused && sent !== null && sent !== undefined)
      value = toNumber(sent, `${table}.value (stat ${stat})`, refused);
    out.push(row(stat, value));
  }
}
