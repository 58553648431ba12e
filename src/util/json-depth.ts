/**
 * How deeply a JSON text nests arrays and objects, checked before it is parsed: JSON.parse
 * itself is not recursive in V8, but JSON.stringify, schema validation and any code walking
 * the parsed value are, so a document nested 100,000 deep ends in "Maximum call stack size
 * exceeded" wherever it goes next. One pass over the text, no recursion, no allocation;
 * brackets inside strings (escaped quotes included) do not count. It does not validate: a
 * text that is not JSON is JSON.parse's to refuse.
 */

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * True when `json` (text, or its UTF-8 bytes) opens more than `max` arrays and objects inside
 * one another: `{"a":[1]}` is 2 deep, a scalar 0. Stops at the first bracket past `max`.
 */
export function jsonDepthExceeds(json: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  return typeof json === 'string' ? textExceeds(json, max) : bytesExceed(json, max);
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

function bytesExceed(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) i = closingQuote(bytes, i);
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

function textExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Index of the quote closing the string opened at `open` (the end when it is never closed):
 * the next quote not escaped, i.e. preceded by an even run of backslashes. UTF-8's multi-byte
 * sequences hold no byte below 0x80, so searching bytes finds the same quotes as the text.
 */
function closingQuote(json: string | Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = typeof json === 'string' ? json.indexOf('"', at + 1) : json.indexOf(QUOTE, at + 1);
    if (at < 0) return json.length;
    let backslashes = 0;
    while (codeAt(json, at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

function codeAt(json: string | Uint8Array, index: number): number | undefined {
  return typeof json === 'string' ? json.charCodeAt(index) : json[index];
}
