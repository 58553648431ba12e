/**
 * How deeply a JSON text nests arrays and objects, checked before it is parsed: JSON.parse
 * itself is not recursive in V8, but JSON.stringify, schema validation and any code walking
 * the parsed value are, so a document nested 100,000 deep ends in "Maximum call stack size
 * exceeded" wherever it goes next. The text is measured by scan-json.ts's one pass (no
 * recursion, no allocation, brackets inside strings do not count), which does not validate: a
 * text that is not JSON is JSON.parse's to refuse.
 */
import { scanJsonBytes, scanJsonText, TOO_DEEP } from './scan-json.js';

/**
 * 128 levels: the API's documents and replies nest a handful deep (a document's `source` or
 * `content`, a stats object), so 128 leaves room for any genuine unknown field, while staying
 * far below the ~10,000 frames at which V8's recursive JSON.stringify overflows its stack.
 */
export const MAX_JSON_DEPTH = 128;

/** A JSON text or value nested deeper than the limit: one line naming `where` and the limit. */
export class JsonTooDeepError extends Error {
  constructor(where: string, max = MAX_JSON_DEPTH, options?: ErrorOptions) {
    super(`${where}: nested deeper than ${max} levels`, options);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * True when `json` (text, or its UTF-8 bytes) opens more than `max` arrays and objects inside
 * one another: `{"a":[1]}` is 2 deep, a scalar 0. Stops at the first bracket past `max`.
 */
export function jsonDepthExceeds(json: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  const scan = typeof json === 'string' ? scanJsonText(json, max) : scanJsonBytes(json, max);
  return (scan & TOO_DEEP) !== 0;
}

/**
 * The same measure of an already parsed value (arrays and objects inside one another), walked
 * with a stack of its own, not recursion.
 */
export function valueDepthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
