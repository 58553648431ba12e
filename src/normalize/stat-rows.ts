import { isRecord, toNumber } from './coerce.js';
import type { Row } from './rows.js';

/**
 * One row per statistic of a free-form `stats` object, stats the spec does not list
 * included; a non-numeric value keeps its row with value NULL (the stat's name is information).
 */
export function pushStatRows(out: Row[], stats: unknown, key: Row): void {
  if (!isRecord(stats)) return;
  for (const stat in stats) {
    const row: Row = { ...key, stat, value: toNumber(stats[stat]) };
    out.push(row);
  }
}
