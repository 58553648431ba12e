/**
 * The values a run refused: a figure the warehouse cannot store as sent (a count with a
 * fraction, a numeric string that is not a decimal number, an integer too large for its
 * column) is stored as NULL, never altered, and counted here by field and reason. The run
 * reports each (field, reason) once, at its end, with how many values and the first one.
 */

/** Distinct (field, reason) lines reported at most; the rest are summed in one more line. */
export const MAX_REFUSED_LINES = 20;
/** Characters of the first refused value quoted in its line. */
const EXAMPLE_CHARS = 40;

interface Refusal {
  readonly field: string;
  readonly reason: string;
  readonly example: string;
  count: number;
}

export class RefusedValues {
  readonly #byKey = new Map<string, Refusal>();
  #total = 0;

  /** Counts one refused value of `field` (`table.column`) and why; returns the NULL stored instead. */
  refuse(field: string, reason: string, value: unknown): null {
    this.#total++;
    const key = `${field}\n${reason}`;
    const known = this.#byKey.get(key);
    if (known) known.count++;
    else this.#byKey.set(key, { field, reason, example: describeValue(value), count: 1 });
    return null;
  }

  /** Values refused so far. */
  get total(): number {
    return this.#total;
  }

  /**
   * One line per (field, reason), most frequent first, at most MAX_REFUSED_LINES:
   * `post_metrics.engagement: 2 values stored as NULL: not a whole number (first: 47177.5)`.
   */
  lines(): string[] {
    const all = [...this.#byKey.values()].sort((a, b) => b.count - a.count || a.field.localeCompare(b.field));
    const lines = all
      .slice(0, MAX_REFUSED_LINES)
      .map(
        (r) =>
          `${r.field}: ${r.count} value${r.count === 1 ? '' : 's'} stored as NULL: ${r.reason} (first: ${r.example})`,
      );
    const rest = all.slice(MAX_REFUSED_LINES);
    if (rest.length) {
      const values = rest.reduce((sum, r) => sum + r.count, 0);
      lines.push(`${values} more values stored as NULL in ${rest.length} more fields or reasons`);
    }
    return lines;
  }
}

/** A refused value as its JSON text, cut short: `47177.5`, `"0x1F"`, `{"a":1}`. */
function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'bigint') text = String(value);
  else if (typeof value === 'object' && value !== null)
    text = Array.isArray(value) ? 'an array' : 'an object';
  else text = JSON.stringify(value) ?? String(value);
  return text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}...` : text;
}
