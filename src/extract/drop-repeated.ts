import type { RawRecord } from '../api/types.js';

/**
 * The records of a page whose key was not seen earlier in the unit (`seen` is updated).
 * Records without a key pass through: the normalizers skip them. Returns the page itself
 * when nothing repeats, the common case.
 */
export function dropRepeated(
  records: RawRecord[],
  keyOf: (record: RawRecord) => string | null,
  seen: Set<string>,
): RawRecord[] {
  let kept: RawRecord[] | undefined;
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i]!;
    const key = keyOf(record);
    if (key !== null && seen.has(key)) {
      kept ??= records.slice(0, i);
      continue;
    }
    if (key !== null) seen.add(key);
    kept?.push(record);
  }
  return kept ?? records;
}
