/**
 * Text the warehouse stores is valid UTF-8, and JSON text is JSON DuckDB reads back. A JS string
 * may hold a lone UTF-16 surrogate (`JSON.parse` accepts `"\ud800"`): DuckDB's binding would
 * store U+FFFD for it silently, and `JSON.stringify` writes it back as the escape `\ud800`,
 * which DuckDB's JSON reader refuses (`no low surrogate in string`), so a Parquet file holding
 * it could not be read again. Both become U+FFFD here, and each repaired value is counted in
 * the thread's tally (text-repairs.ts) for the run's one warning.
 */
import { noteRepairedText } from './text-repairs.js';

/** String.prototype.isWellFormed / toWellFormed (ES2024, Node 20+; the project's lib is ES2023). */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** What a lone surrogate becomes. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * A JSON escape that matters here, from a backslash: `\\` (skipped over, so that the text after
 * an escaped backslash is not taken for an escape), a high surrogate's escape with the low
 * one's after it (a pair: kept), or a surrogate's escape alone (lone: replaced).
 */
const SURROGATE_ESCAPE =
  /\\(?:\\|u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2})/g;
/** A pair's escape is 12 characters; `\\` is 2; a lone escape is 6. */
const LONE_ESCAPE_LENGTH = 6;

/** `text` with every lone surrogate (a JS code unit) replaced by U+FFFD; the same string when it has none. */
export function wellFormed(text: string): string {
  const unicode = text as unknown as WellFormedString;
  return unicode.isWellFormed() ? text : unicode.toWellFormed();
}

/** Whether JSON text holds the escape of a lone surrogate. Cheap when it holds no `\u` at all. */
function hasLoneSurrogateEscape(json: string): boolean {
  if (!json.includes('\\u')) return false;
  SURROGATE_ESCAPE.lastIndex = 0;
  for (let match = SURROGATE_ESCAPE.exec(json); match; match = SURROGATE_ESCAPE.exec(json))
    if (match[0].length === LONE_ESCAPE_LENGTH) return true;
  return false;
}

/**
 * JSON text with every lone surrogate, escaped (`\ud800`, keys included) or raw, replaced by
 * U+FFFD; the same string when it has none. A surrogate pair, escaped or not, is kept.
 */
export function wellFormedJson(json: string): string {
  const text = wellFormed(json);
  if (!hasLoneSurrogateEscape(text)) return text;
  return text.replace(SURROGATE_ESCAPE, (found) =>
    found.length === LONE_ESCAPE_LENGTH ? REPLACEMENT_CHARACTER : found,
  );
}

/**
 * A converter of a text column's values for the appender: String(value), made well formed
 * (wellFormedJson for a JSON column), a repair counted against `table`.`column`.
 */
export function wellFormedConverter(
  table: string,
  column: string,
  json: boolean,
): (value: string | number | boolean | null) => string | null {
  const repair = json ? wellFormedJson : wellFormed;
  return (value) => {
    if (value === null) return null;
    const text = typeof value === 'string' ? value : String(value);
    // The usual case costs a flag check (a one-byte string cannot hold a surrogate) and, for
    // JSON, one search for `\u`.
    if (!json && (text as unknown as WellFormedString).isWellFormed()) return text;
    const repaired = repair(text);
    if (repaired !== text) noteRepairedText(table, column);
    return repaired;
  };
}
