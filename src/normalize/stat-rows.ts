import { isRecord, toNumber } from './coerce.js';
import type { Row, Value } from './rows.js';

/**
 * One row per statistic of a free-form `stats` object, stats the spec does not list
 * included; a non-numeric value keeps its row with value NULL (the stat's name is
 * information). `row` builds the row (an explicit literal: no spread on this hot path).
 */
export function pushStatRows(out: Row[], stats: unknown, row: (stat: string, value: Value) => Row): void {
  if (!isRecord(stats)) return;
  for (const stat in stats) out.push(row(stat, toNumber(stats[stat])));
}
